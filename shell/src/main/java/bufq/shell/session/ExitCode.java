package bufq.shell.session;

/** bufq's exit codes: what {@code bufq} and its REPLs return. */
public final class ExitCode {
    private ExitCode() {}

    /** Success. */
    public static final int OK = 0;
    /** A query or command failed. */
    public static final int FAILED = 1;
    /** A usage error: a bad option, an unreadable {@code -f} script. */
    public static final int USAGE = 2;
    /** A dump could not be loaded. */
    public static final int LOAD = 3;
}
