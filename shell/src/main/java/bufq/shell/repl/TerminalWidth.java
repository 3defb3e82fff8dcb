package bufq.shell.repl;

import org.jline.nativ.CLibrary;

/** The width of the terminal stdout is, asked of the terminal itself (no {@code stty} process started). */
public final class TerminalWidth {
    private TerminalWidth() {}

    /**
     * Columns of the terminal on descriptor 1, by the {@code TIOCGWINSZ} ioctl through JLine's native
     * library; 0 when it cannot say (not a terminal, no native library for this platform).
     */
    public static int stdout() {
        try {
            return Math.max(0, CLibrary.getTerminalWidth(1));
        } catch (RuntimeException | LinkageError e) {
            return 0;
        }
    }
}
