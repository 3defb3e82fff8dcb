package bufq.shell.script;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.Source;

/**
 * The error a script gets when it writes to or deletes from a bufq object or array: a JavaScript
 * {@code TypeError} whose message says what is read-only. Throwing a Java exception from the proxy
 * instead lets GraalJS word it as an interop failure ("writeMember (query) on {...} failed due to:
 * Message not supported"), which is what a script that catches it would read in {@code e.message}.
 */
final class ReadOnlyError {
    private ReadOnlyError() {}

    /** Internal source: error locations skip it and name the script's line that wrote. */
    private static final Source THROW = Source.newBuilder("js", "(function (message) { throw new TypeError(message); })",
            "<bufq-read-only>").internal(true).buildLiteral();

    /**
     * The TypeError carrying {@code message}, made in the running script's context, to be thrown
     * by a proxy callback (GraalJS rethrows it into the script as the TypeError itself).
     */
    static RuntimeException of(String message) {
        try {
            Context.getCurrent().eval(THROW).execute(message);
        } catch (PolyglotException e) {
            return e;
        } catch (IllegalStateException e) {
            // no script running (a Java caller): a plain exception says the same
        }
        return new UnsupportedOperationException(message);
    }
}
