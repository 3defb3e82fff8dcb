package bufq.shell.command;

import bufq.shell.session.CommandException;
import bufq.shell.session.OutputSink;
import bufq.shell.api.CommandContext;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;

/** Writes an SVG or HTML picture to a file atomically, refusing to replace one without --force. */
final class Pictures {
    private Pictures() {}

    static void write(CommandContext ctx, String file, boolean force, String content) throws CommandException {
        Path target = Path.of(file);
        try (OutputSink sink = OutputSink.file(target, force)) {
            sink.write(content);
        } catch (FileAlreadyExistsException e) {
            throw new CommandException(file + " exists; add --force to replace it");
        } catch (IOException e) {
            throw new CommandException("cannot write " + file + ": " + e.getMessage());
        }
        ctx.out().info("wrote " + file);
    }
}
