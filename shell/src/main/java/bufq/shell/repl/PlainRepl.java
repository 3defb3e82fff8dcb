package bufq.shell.repl;

import bufq.shell.session.ExitCode;
import bufq.shell.statement.Paste;
import bufq.shell.run.Repl;
import bufq.shell.run.Shell;
import bufq.shell.statement.StatementReader;
import bufq.shell.session.Status;
import bufq.shell.session.Version;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** A line loop with a prompt and no editing: the fallback when JLine cannot open the terminal. */
public final class PlainRepl implements Repl {
    private final BufferedReader in;

    public PlainRepl(InputStream in) {
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    @Override public int run(Shell shell) {
        PrintStream out = shell.printer().out();
        out.println("bufq " + Version.NUMBER + " - type 'help' for commands, 'help query' for queries, 'quit' to leave.");
        shell.setPaste(Paste.untilBlank(in, shell.printer().err()));
        StringBuilder pending = new StringBuilder();
        while (true) {
            String handle = shell.current() == null ? "" : ":" + shell.current().handle();
            out.print(pending.length() == 0 ? "bufq" + handle + "> " : "   ...> ");
            out.flush();
            String line;
            // No idle timer in the plain loop: only the idle work's first step (a background read),
            // never the script engine's start, which a script starts when it needs it.
            shell.idle(() -> false, shown -> {});
            try {
                line = in.readLine();
            } catch (IOException e) {
                shell.printer().error("cannot read input: " + e.getMessage());
                return ExitCode.FAILED;
            }
            if (line == null) {
                out.println();
                return ExitCode.OK;
            }
            String t = line.strip();
            if (t.endsWith("\\")) {
                pending.append(t.substring(0, t.length() - 1).stripTrailing()).append(' ');
                continue;
            }
            boolean js = StatementReader.isJs(pending.length() == 0 ? t : pending);
            pending.append(js && pending.length() > 0 ? line : t);
            String text = pending.toString();
            if (shell.needsMore(text)) {
                pending.append(js ? '\n' : ' ');
                continue;
            }
            pending.setLength(0);
            shell.history().add(text);
            if (shell.execute(text) == Status.QUIT) return ExitCode.OK;
        }
    }
}
