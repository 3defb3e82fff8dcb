package bufq.shell.statement;

import bufq.api.OomLog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Where {@code oom -} reads pasted text: the terminal (a prompt; an empty line or Ctrl-D ends it),
 * the rest of a piped script (up to an empty line), or all of stdin in a batch run
 * ({@code bufq -c 'oom -' DUMP < err.log}).
 */
public interface Paste {
    /** What {@code oom -} says before it reads from a terminal. */
    String PROMPT = "paste the error message; an empty line or Ctrl-D ends it, Ctrl-C cancels";

    /**
     * The most a paste may hold: one byte more than {@code oom} reads, so that {@code oom} can say the
     * rest was not read ({@code oom - < /dev/zero} holds this much and no more).
     */
    int MAX_BYTES = OomLog.MAX_BYTES + 1;

    /**
     * The pasted text; null when there is nothing to read from.
     *
     * @throws Cancelled the user cancelled the paste (Ctrl-C)
     */
    String read() throws IOException;

    /** Ctrl-C during a paste: nothing was read, on purpose. */
    final class Cancelled extends IOException {
        public Cancelled() { super("paste cancelled"); }
    }

    /** No input to read (stdin closed, or already the statements' source). */
    Paste NONE = () -> null;

    /** All of {@code in}, up to {@link #MAX_BYTES}: a batch run's stdin. */
    static Paste all(InputStream in) {
        return () -> new String(in.readNBytes(MAX_BYTES), StandardCharsets.UTF_8);
    }

    /** Lines of {@code in} up to an empty line or its end; {@code prompt} (may be null) gets {@link #PROMPT} first. */
    static Paste untilBlank(BufferedReader in, PrintStream prompt) {
        return () -> {
            if (prompt != null) {
                prompt.println(PROMPT);
                prompt.flush();
            }
            StringBuilder b = new StringBuilder();
            String line;
            while ((line = in.readLine()) != null && !line.isBlank() && b.length() < MAX_BYTES) b.append(line).append('\n');
            return b.toString();
        };
    }
}
