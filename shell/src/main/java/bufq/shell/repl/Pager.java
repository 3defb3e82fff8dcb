package bufq.shell.repl;

import bufq.shell.session.OutputSink;
import bufq.shell.run.Shell;
import bufq.shell.session.Status;
import org.jline.terminal.Terminal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * {@code set pager on}: a statement's console output is collected, and when it is taller than the
 * terminal it goes through {@code $PAGER} (default {@code less -RS}, which keeps colours and scrolls wide lines sideways instead of wrapping them) instead of
 * scrolling away. Output sent to a file with {@code output} is never paged. JLine stops reading
 * the terminal meanwhile, so the pager gets every key.
 */
final class Pager {
    static final String DEFAULT = "less -RS";

    private final Shell shell;
    private final Terminal terminal;

    Pager(Shell shell, Terminal terminal) {
        this.shell = shell;
        this.terminal = terminal;
    }

    /** A statement's result and the console output held back for {@link #show} ("" when none). */
    record Captured(Status status, String text) {}

    /**
     * Runs {@code statement}; with the pager on, its console output is held back to be shown by
     * {@link #show} once the statement is over (and Ctrl-C no longer cancels anything).
     */
    Captured capture(Supplier<Status> statement) {
        if (!shell.settings().pager() || !shell.printer().sink().isConsole()) return new Captured(statement.get(), "");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        OutputSink capture = OutputSink.console(new PrintStream(buf, true, StandardCharsets.UTF_8));
        Status st;
        try {
            shell.printer().switchSink(capture);
            try {
                st = statement.get();
            } finally {
                if (shell.printer().sink() == capture) shell.printer().switchSink(OutputSink.console(shell.printer().out()));
            }
        } catch (IOException e) {
            shell.printer().error("pager: " + e.getMessage());
            return new Captured(Status.ERROR, buf.toString(StandardCharsets.UTF_8));
        }
        return new Captured(st, buf.toString(StandardCharsets.UTF_8));
    }

    /** Prints {@code text}, or pages it when it does not fit on the screen. */
    void show(String text) {
        if (text.isEmpty()) return;
        if (rows(text, terminal.getWidth()) < Math.max(2, terminal.getHeight() - 1)) {
            shell.printer().out().print(text);
            shell.printer().out().flush();
            return;
        }
        String cmd = shell.env().vars().getOrDefault("PAGER", "");
        if (cmd.isBlank()) cmd = DEFAULT;
        terminal.pause();
        try {
            Process p = new ProcessBuilder("/bin/sh", "-c", cmd)
                    .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(text.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the pager quit before reading everything (q in less): fine
            }
            p.waitFor();
        } catch (IOException e) {
            shell.printer().info("bufq: cannot start pager '" + cmd + "': " + e.getMessage());
            shell.printer().out().print(text);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            terminal.resume();
        }
    }

    /** Screen rows {@code text} takes, counting long lines as wrapped. */
    static long rows(String text, int width) {
        int w = Math.max(1, width);
        return text.lines().mapToLong(l -> Math.max(1, (l.length() + w - 1) / w)).sum();
    }
}
