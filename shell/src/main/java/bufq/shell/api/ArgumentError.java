package bufq.shell.api;

import bufq.lang.Diagnostic;
import bufq.shell.session.CommandException;

/** An argument that does not parse or resolve: a diagnostic whose span is in the command's arguments. */
public final class ArgumentError extends CommandException {
    private final transient Diagnostic diagnostic;

    public ArgumentError(Diagnostic diagnostic) {
        super(diagnostic.fullMessage());
        this.diagnostic = diagnostic;
    }

    /** {@code d}, a diagnostic in the columns of a text (a query, edits) that starts {@code at} characters into the arguments. */
    public static ArgumentError within(int at, Diagnostic d) {
        return new ArgumentError(new Diagnostic(d.start() + at, d.end() + at, d.message(), d.suggestions()));
    }

    /** Where and what, in the arguments' own columns. */
    public Diagnostic diagnostic() { return diagnostic; }

    /** The error drawn under {@code statement}, whose arguments start {@code at} characters into it. */
    public String render(String statement, int at) {
        Diagnostic d = diagnostic;
        return new Diagnostic(d.start() + at, d.end() + at, d.message(), d.suggestions()).render(statement);
    }
}
