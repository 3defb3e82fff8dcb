package bufq.analysis.oom;

/**
 * Something the reader skipped or could not finish, at a 1-based line of the pasted text.
 *
 * @param line    where it is
 * @param message what was skipped and what was expected, lowercase
 */
public record OomWarning(int line, String message) {
    @Override public String toString() { return "line " + line + ": " + message; }
}
