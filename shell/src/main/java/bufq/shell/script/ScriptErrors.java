package bufq.shell.script;

import org.graalvm.polyglot.PolyglotException;
import org.graalvm.polyglot.SourceSection;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.Locale;

/** Turns what a script threw into one message naming the script file, line and column. */
final class ScriptErrors {
    private ScriptErrors() {}

    /**
     * @param stopReason why the watchdog stopped the script ({@code time}, {@code memory},
     *                   {@code cancelled}), or null
     */
    static String describe(PolyglotException e, String stopReason, String timeout, long heapCap, String source) {
        String where = where(e);
        if (where == null) where = source; // GraalJS gives some host-access errors no location
        String prefix = where == null ? "" : where + ": ";
        // The engine reports a host stack overflow (a script recursing through bufq.query) as
        // exhausted resources too: it is the stack, not the heap the watchdog limits.
        if (stopReason == null && e.isResourceExhausted() && e.getMessage() != null
                && e.getMessage().toLowerCase(Locale.ROOT).contains("stack overflow"))
            return prefix + "script stopped: it called itself too deep (through bufq.query, a field or a tiling model?) and ran"
                    + " out of stack";
        if (stopReason != null || e.isInterrupted() || e.isCancelled() || e.isResourceExhausted())
            return prefix + stopMessage(stopReason == null ? (e.isResourceExhausted() ? "memory" : "cancelled") : stopReason,
                    timeout, heapCap);
        if (e.isSyntaxError()) return prefix + "syntax error: " + syntaxMessage(e) + caret(e.getSourceLocation());
        if (e.isHostException()) {
            Throwable h = e.asHostException();
            String m = h.getMessage() == null ? h.getClass().getSimpleName() : h.getMessage();
            return prefix + m;
        }
        if (e.isInternalError()) return prefix + "internal error in the JavaScript engine: " + e.getMessage();
        String m = e.getMessage();
        String undefined = userCode(e.getSourceLocation()) ? UndefinedMember.explain(m, e.getSourceLocation()) : null;
        if (undefined != null) return undefined;
        return prefix + (m == null ? "script failed" : readOnly(m));
    }

    /** Why the watchdog stopped a script, in words; {@code timeout} in seconds as the user set it. */
    static String stopMessage(String reason, String timeout, long heapCap) {
        return switch (reason == null ? "cancelled" : reason) {
            case "time" -> "script stopped after the " + timeout + " s time limit (change it with 'set timeout N', 0 = none)";
            case "memory" -> "script stopped: it held more than " + (heapCap >> 20) + " MiB of memory";
            default -> "script cancelled";
        };
    }

    private static final Pattern WRITE = Pattern.compile(
            "TypeError: (writeMember|removeMember|writeArrayElement|removeArrayElement)(?: \\(([^)]*)\\))? on .* failed due to: .*");

    private static final Pattern FROZEN = Pattern.compile("(TypeError: Cannot assign to read only property '[^']*') of (.*)", Pattern.DOTALL);

    /**
     * GraalJS words a refused write as an interop failure; say what happened instead. A write to a
     * frozen built-in names the object by printing all of it (Array.prototype: a kilobyte): name it.
     */
    private static String readOnly(String m) {
        Matcher f = FROZEN.matcher(m);
        if (f.matches() && f.group(2).length() > 60)
            return f.group(1) + " of a frozen object: bufq freezes JavaScript's built-ins before any script runs,"
                    + " so that no script changes what the scripts after it see";
        Matcher x = WRITE.matcher(m);
        if (!x.matches()) return m;
        String what = x.group(2) == null || x.group(2).isBlank() ? "" : " '" + x.group(2) + "'";
        return "TypeError: cannot " + (x.group(1).startsWith("remove") ? "delete" : "set") + what
                + ": bufq objects and arrays are read-only";
    }

    /** {@code file:line:column} of the error, or of the innermost script frame, or null. */
    static String where(PolyglotException e) {
        SourceSection s = userCode(e.getSourceLocation()) ? e.getSourceLocation() : null;
        if (s == null) {
            for (PolyglotException.StackFrame f : e.getPolyglotStackTrace()) {
                if (f.isGuestFrame() && userCode(f.getSourceLocation())) {
                    s = f.getSourceLocation();
                    break;
                }
            }
        }
        if (s == null) return null;
        return s.getSource().getName() + ":" + s.getStartLine() + ":" + s.getStartColumn();
    }

    /** A place in the user's script, not in the engine's own builtins ({@code <builtin>}). */
    private static boolean userCode(SourceSection s) {
        return s != null && s.getSource() != null && !s.getSource().isInternal() && !s.getSource().getName().startsWith("<");
    }

    /** GraalJS puts "file:line:col " and a caret picture into the message; keep only the words. */
    private static String syntaxMessage(PolyglotException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        int nl = m.indexOf('\n');
        String first = nl < 0 ? m : m.substring(0, nl);
        if (first.startsWith("SyntaxError: ")) first = first.substring("SyntaxError: ".length());
        int sp = first.indexOf(' ');
        if (sp > 0 && first.substring(0, sp).matches(".*:\\d+:\\d+")) first = first.substring(sp + 1);
        return first;
    }

    private static String caret(SourceSection s) {
        if (s == null || !s.isAvailable() || s.getSource() == null || s.getStartLine() < 1) return "";
        try {
            String line = s.getSource().getCharacters(s.getStartLine()).toString();
            if (line.length() > 200) return "";
            return "\n  " + line + "\n  " + " ".repeat(Math.max(0, s.getStartColumn() - 1)) + "^";
        } catch (RuntimeException ex) {
            return "";
        }
    }
}
