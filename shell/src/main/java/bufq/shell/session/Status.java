package bufq.shell.session;

/** Outcome of one line given to {@link Shell#execute}. */
public enum Status {
    OK,
    /** A query or command failed; the message has been printed. */
    ERROR,
    /** {@code quit} or {@code exit}: stop reading input. */
    QUIT
}
