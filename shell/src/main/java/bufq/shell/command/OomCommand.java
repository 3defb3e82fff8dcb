package bufq.shell.command;

import bufq.model.HloModule;
import bufq.oom.OomReader;
import bufq.oom.OomReport;
import bufq.oom.OomText;
import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Paste;
import bufq.shell.session.Shell;
import bufq.shell.session.Status;
import bufq.shell.session.UserPaths;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code oom FILE|-}: an out-of-memory message joined to the loaded modules. */
final class OomCommand implements Command {
    @Override public String name() { return "oom"; }
    @Override public String synopsis() { return "oom FILE|-"; }
    @Override public String brief() { return "Joins an out-of-memory message to the loaded modules and their values."; }

    @Override public String description() {
        return "Reads the out-of-memory messages in FILE (or pasted after 'oom -': an empty line or Ctrl-D ends the\n"
                + "paste; in a batch run 'oom -' reads stdin), from every XLA family: XLA:CPU, GPU buffer assignment\n"
                + "(stats, Peak buffers), stream executor and BFC (with the xla.execute/xla.buffer annotations), TPU\n"
                + "compile time (E1000, Largest program allocations, vmem), TPU #allocationK, TPU run time (E0100,\n"
                + "E0101) and SparseCore; log prefixes, tracebacks and re-wrapped lines are taken as they come. Prints\n"
                + "what each message says (sizes exact where printed exactly, else with the byte counts that print\n"
                + "that way), which loaded module and allocation it is about (ranked, with the evidence: program\n"
                + "name, an allocation of exactly the requested size, the listed buffers), each listed buffer's\n"
                + "values with how they matched (allocation index, instruction name, size+shape+opcode, size only,\n"
                + "none), and the message's totals against the dump's. Each row ends with a line to run next.\n"
                + "Text without an out-of-memory message is an error. Also: bufq --oom FILE DUMP. Scripts: bufq.oom(text).";
    }

    @Override public List<String> examples() { return List.of("oom err.log", "oom -"); }

    @Override public boolean rawArgs() { return true; }

    /** Modules are read as the join needs them, all of them: not the current module's parts. */
    @Override public boolean needsCurrentModule() { return false; }

    @Override public Status run(Shell shell, List<String> args) throws CommandException, Engine.Failure, IOException {
        String arg = args.isEmpty() ? "" : unquote(args.get(0).strip());
        if (arg.isEmpty()) throw new CommandException("usage: " + synopsis());
        String source = arg.equals("-") ? "the paste" : arg;
        OomText text = OomReader.read(arg.equals("-") ? paste(shell) : read(Path.of(arg)));
        if (text.messages().isEmpty())
            throw new CommandException("no out-of-memory message in " + source + " (" + text.lines() + " line"
                    + (text.lines() == 1 ? "" : "s") + " read)");
        List<HloModule> modules = new ArrayList<>();
        shell.forEachModule(modules::add);
        shell.print(OomReport.run(text, modules));
        return Status.OK;
    }

    private static byte[] paste(Shell shell) throws CommandException, IOException {
        String s = shell.paste().read();
        if (s == null) throw new CommandException("nothing to paste from here: give a file (oom FILE)");
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The file's bytes, up to {@link Paste#MAX_BYTES}; a clear one-line error when it cannot be read. */
    static byte[] read(Path file) throws CommandException {
        try {
            if (Files.isDirectory(file)) throw new CommandException("cannot read " + file + ": a directory; expected a file holding the error message");
            if (Files.exists(file) && !Files.isRegularFile(file))
                throw new CommandException("cannot read " + file + ": not a regular file; expected a file holding the error message");
            try (InputStream in = Files.newInputStream(file)) {
                return in.readNBytes(Paste.MAX_BYTES);
            }
        } catch (NoSuchFileException e) {
            throw new CommandException("cannot read " + file + ": no such file");
        } catch (IOException e) {
            throw new CommandException("cannot read " + file + ": " + UserPaths.message(e));
        }
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && (s.startsWith("\"") && s.endsWith("\"") || s.startsWith("'") && s.endsWith("'")))
            return s.substring(1, s.length() - 1);
        return s;
    }
}
