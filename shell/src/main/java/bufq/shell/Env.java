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
 * @param cwd         the user's working directory (absolute): relative paths the user writes are
 *                    files there. Not the JVM's under a resident server, which serves many clients.
 */
public record Env(Map<String, String> vars, boolean interactive, boolean stdinClosed, Path cwd) {
    public Env {
        vars = Map.copyOf(vars);
        cwd = cwd.toAbsolutePath();
    }

    /** Working directory: the JVM's. */
    public Env(Map<String, String> vars, boolean interactive, boolean stdinClosed) {
        this(vars, interactive, stdinClosed, jvmCwd());
    }

    /** Working directory: the JVM's. */
    public Env(Map<String, String> vars, boolean interactive) {
        this(vars, interactive, false);
    }

    public static Env system() {
        return new Env(System.getenv(), terminal(), stdinReused(), jvmCwd());
    }

    private static Path jvmCwd() {
        return Path.of("").toAbsolutePath();
    }

    /**
     * The file a path the user wrote names: an absolute path as is, a relative one under
     * {@link #cwd()}. Open this, but show the user's spelling in messages. When {@code cwd} is the
     * JVM's own directory the path comes back unchanged (relative), so nothing differs from a plain run.
     */
    public Path resolve(String userPath) {
        Path p = Path.of(userPath);
        if (p.isAbsolute() || cwd.equals(jvmCwd())) return p;
        return cwd.resolve(p);
    }

    /** The directory dump paths are read from by an engine: null when it is the JVM's own. */
    public Path base() {
        return cwd.equals(jvmCwd()) ? null : cwd;
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

    /** bufq was started with stdin closed: see {@link bufq.shell.server.Client#stdinReused}. */
    static boolean stdinReused() {
        return bufq.shell.server.Client.stdinReused();
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
