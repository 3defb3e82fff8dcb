package bufq.shell.repl;

import bufq.shell.cli.Bufq;
import bufq.shell.command.Commands;
import bufq.shell.session.Env;
import bufq.shell.api.ScriptContext;
import bufq.shell.api.ScriptEngine;
import bufq.shell.run.Shell;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Drives the real {@link JLineRepl} over in-memory streams through a dumb JLine terminal: what the
 * user types goes in as bytes (Tab, Ctrl-C and all), what the terminal and the shell print comes out.
 */
final class Transcript {
    final ByteArrayOutputStream screen = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final ReplEngine engine = new ReplEngine();
    final Map<String, String> env = new HashMap<>();
    Terminal terminal;
    Shell shell;
    int exit = -1;

    /** {@code dumb} (no escape codes) or {@code ansi} (JLine only completes on Tab with a capable terminal). */
    String type = "dumb";
    /** Terminal height. */
    int rows = 40;
    /** Errors on the screen too, as a terminal shows them. */
    boolean errToScreen;
    /** Makes the session's script engine; null for the real one. */
    Function<ScriptContext, ScriptEngine> scripts;
    /** The example is read behind the first prompt, as {@code bufq EXAMPLE} on a terminal reads it. */
    boolean readBehindPrompt;

    Transcript(Path stateHome) {
        env.put("XDG_STATE_HOME", stateHome.toString());
        env.put("HOME", stateHome.toString());
    }

    /** A shell with the bundled example loaded, talking to a dumb terminal reading {@code in}. */
    Shell open(InputStream in) throws IOException {
        // Built directly: TerminalBuilder would pick a pseudo-terminal provider for these streams.
        terminal = new DumbTerminal(null, null, "bufq-test", type, in, screen, StandardCharsets.UTF_8,
                Terminal.SignalHandler.SIG_IGN);
        terminal.setSize(new Size(120, rows));
        // A dumb terminal starts with no signal characters; give it a real tty's Ctrl-C and Ctrl-D.
        Attributes a = terminal.getAttributes();
        a.setLocalFlag(Attributes.LocalFlag.ISIG, true);
        a.setControlChar(Attributes.ControlChar.VINTR, 3);
        a.setControlChar(Attributes.ControlChar.VEOF, 4);
        terminal.setAttributes(a);
        PrintStream out = new PrintStream(screen, true, StandardCharsets.UTF_8);
        PrintStream errors = new PrintStream(errToScreen ? screen : err, true, StandardCharsets.UTF_8);
        shell = scripts == null ? Bufq.shell(engine, out, errors, new Env(env, true))
                : new Shell(engine, Commands.standard(), scripts, out, errors, new Env(env, true));
        try {
            if (readBehindPrompt) shell.modules().loadInBackground(shell.modules().discover(List.of(ReplEngine.example())).get(0));
            else shell.modules().load(List.of(ReplEngine.example()));
        } catch (bufq.shell.session.Engine.Failure e) {
            throw new AssertionError(e.getMessage());
        }
        return shell;
    }

    /**
     * Types {@code input}, then Ctrl-D, and runs the REPL to its end; returns what was on the screen.
     * (Ctrl-D rather than the end of the stream: JLine's non-blocking reader reports the end once.)
     */
    String run(String input) throws IOException {
        open(new java.io.ByteArrayInputStream((input + "\u0004").getBytes(StandardCharsets.UTF_8)));
        exit = new JLineRepl(() -> terminal, InputStream.nullInputStream()).run(shell);
        return screen();
    }

    /** The screen without escape sequences and carriage returns. */
    String screen() {
        return screen.toString(StandardCharsets.UTF_8).replaceAll("\u001b\\[[0-9;?]*[A-Za-z]", "").replace("\r", "");
    }
    String err() { return err.toString(StandardCharsets.UTF_8); }
}
