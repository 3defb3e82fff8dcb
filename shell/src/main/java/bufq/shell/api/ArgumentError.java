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

    /** {@code d}, a diagnostic in {@code word}'s own columns (a query's, an edit's), at {@code word}'s place in the arguments. */
    public static ArgumentError within(ParsedArgs.Word word, Diagnostic d) {
        return new ArgumentError(new Diagnostic(d.start() + word.start(), d.end() + word.start(), d.message(), d.suggestions()));
    }

    /** Where and what, in the arguments' own columns. */
    public Diagnostic diagnostic() { return diagnostic; }

    /** The error drawn under {@code statement}, whose arguments start {@code at} characters into it. */
    public String render(String statement, int at) {
        Diagnostic d = diagnostic;
        return new Diagnostic(d.start() + at, d.end() + at, d.message(), d.suggestions()).render(statement);
    }
}
