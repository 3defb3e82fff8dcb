package bufq.shell.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The process surroundings the shell may look at, passed in so tests can pretend.
 *
 * @param vars        environment variables ({@code NO_COLOR}, {@code BUFQ_DEBUG}, ...)
 * @param interactive stdin and stdout are a terminal
 * @param stdinClosed bufq was started with stdin closed ({@code <&-}); read nothing from it
 * @param columns     the width of the terminal stdout is, as it reports it; 0 when unknown or not a terminal
 */
public record Env(Map<String, String> vars, boolean interactive, boolean stdinClosed, int columns) {
    public Env {
        vars = Map.copyOf(vars);
    }

    public Env(Map<String, String> vars, boolean interactive, boolean stdinClosed) {
        this(vars, interactive, stdinClosed, 0);
    }

    public Env(Map<String, String> vars, boolean interactive) {
        this(vars, interactive, false);
    }

    /** These surroundings on a terminal {@code columns} wide. */
    public Env withColumns(int columns) { return new Env(vars, interactive, stdinClosed, columns); }

    public static Env system() {
        return new Env(System.getenv(), terminal(), stdinReused());
    }

    /**
     * Whether stdin and stdout are both a terminal. On Linux /proc says so exactly; elsewhere
     * {@code System.console()} does (on Java 17-21 it is null unless both are a terminal).
     */
    static boolean terminal() {
        try {
            return isTty(Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString())
                    && isTty(Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString());
        } catch (IOException | RuntimeException e) {
            return System.console() != null;
        }
    }

    private static boolean isTty(String device) {
        return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || device.equals("/dev/console");
    }

    /**
     * Whether bufq was started with stdin closed ({@code <&-}): the JVM then opens one of its own
     * files (the jar, a module of the JDK) as the lowest free descriptor, 0, and reading "stdin"
     * would read that file. On Linux /proc shows what descriptor 0 is; elsewhere: false.
     */
    static boolean stdinReused() {
        try {
            String t = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
            String home = Path.of(System.getProperty("java.home")).toRealPath().toString();
            return t.startsWith(home + "/") || t.endsWith(".jar");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** {@code NO_COLOR} set to anything non-empty (https://no-color.org). */
    public boolean noColor() {
        String v = vars.get("NO_COLOR");
        return v != null && !v.isEmpty();
    }

    public boolean debug() {
        String v = vars.get("BUFQ_DEBUG");
        return v != null && !v.isEmpty() && !v.equals("0");
    }
}
