package bufq.lang;

/** A query that cannot be compiled or run, with the diagnostic that says where and why. */
public final class QueryException extends Exception {
    private final transient Diagnostic diagnostic;

    public QueryException(Diagnostic diagnostic) {
        super(diagnostic.fullMessage(), null, false, false);
        this.diagnostic = diagnostic;
    }

    public QueryException(int start, int end, String message) {
        this(new Diagnostic(start, end, message));
    }

    public Diagnostic diagnostic() { return diagnostic; }
}
