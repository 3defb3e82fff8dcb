package bufq.shell.repl;

import org.jline.reader.LineReaderBuilder;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.DumbTerminal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The REPL's head start, in a class of its own so that loading {@link JLineRepl} loads no JLine. */
final class Warmup {
    private Warmup() {}

    /**
     * Loads and initialises JLine's reader classes (key maps, display, widgets) on a throwaway
     * in-memory terminal, and reads the terminal's shipped capabilities; touches nothing the real
     * terminal uses. Failures only cost the head start.
     */
    static void run() {
        TerminalCapabilities.useShipped(System.getenv("TERM"));
        TerminalCapabilities.useShipped("ansi");  // the throwaway terminal's type: no infocmp for it either
        try (Terminal t = new DumbTerminal(null, null, "warmup", "ansi",
                InputStream.nullInputStream(), OutputStream.nullOutputStream(),
                StandardCharsets.UTF_8, Terminal.SignalHandler.SIG_IGN)) {
            LineReaderBuilder.builder().terminal(t).build();
        } catch (IOException | RuntimeException | LinkageError e) {
            // the real start-up does the same work and reports real problems
        }
    }
}
