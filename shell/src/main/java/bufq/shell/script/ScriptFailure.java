package bufq.shell.script;

import org.graalvm.polyglot.SourceSection;
import org.graalvm.polyglot.Value;

/** A script failed; the message names file, line and column. */
final class ScriptFailure extends RuntimeException {
    ScriptFailure(String message) {
        super(message, null, false, false);
    }

    @Override public String toString() { return getMessage(); }

    /** {@code file:line:column: } of a script function's definition, or nothing when GraalJS gives none. */
    static String definedAt(Value fn) {
        SourceSection s = fn.getSourceLocation();
        if (s == null || s.getSource() == null) return "";
        return s.getSource().getName() + ":" + s.getStartLine() + ":" + s.getStartColumn() + ": ";
    }
}
