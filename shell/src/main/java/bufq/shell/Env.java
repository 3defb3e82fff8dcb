package bufq.shell;

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
 */
public record Env(Map<String, String> vars, boolean interactive, boolean stdinClosed) {
    public Env {
        vars = Map.copyOf(vars);
    }

    public Env(Map<String, String> vars, boolean interactive) {
        this(vars, interactive, false);
    }

    public static Env system() {
        return new Env(System.getenv(), System.console() != null, stdinReused());
    }

    /**
     * When bufq starts with stdin closed, the JVM's first opened file (its {@code lib/modules}, or a
     * jar) takes descriptor 0, and reading "stdin" would run binary garbage as commands. Linux only:
     * elsewhere, or when /proc is not there, assume stdin is what it seems.
     */
    static boolean stdinReused() {
        try {
            Path target = Files.readSymbolicLink(Path.of("/proc/self/fd/0"));
            String t = target.toString();
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
