package bufq.lang;

import java.util.List;

/**
 * One problem in a query: the half-open span {@code [start, end)} it is about, a lowercase message
 * saying what was expected and what was found, and near names for "did you mean".
 */
public record Diagnostic(int start, int end, String message, List<String> suggestions) {
    public Diagnostic {
        if (end < start) end = start;
        // Messages quote what the user typed ("\n" in a string): keep them one line.
        message = oneLine(message);
        suggestions = List.copyOf(suggestions);
    }

    private static String oneLine(String s) {
        if (s == null) return "";
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0) && !bidi(c)) {
                if (b != null) b.append(c);
                continue;
            }
            if (b == null) b = new StringBuilder(s.length() + 8).append(s, 0, i);
            b.append(c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : String.format("\\u%04x", (int) c));
        }
        return b == null ? s : b.toString();
    }

    /** The bidi controls (U+202E reverses what follows on a terminal) and line separators: escaped in a message. */
    private static boolean bidi(char c) {
        return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    }

    public Diagnostic(int start, int end, String message) { this(start, end, message, List.of()); }

    /** The message with its did-you-mean, one line. */
    public String fullMessage() {
        if (suggestions.isEmpty()) return message;
        StringBuilder b = new StringBuilder(message).append("; did you mean ");
        for (int i = 0; i < suggestions.size(); i++) {
            if (i > 0) b.append(i == suggestions.size() - 1 ? " or " : ", ");
            b.append('\'').append(suggestions.get(i)).append('\'');
        }
        return b.append('?').toString();
    }

    /** Lines longer than this are shown as {@link #CONTEXT} characters either side of the spot. */
    private static final int LONG_LINE = 1000, CONTEXT = 60;

    /**
     * The source line holding the error, a caret line under {@code [start, end)} (one caret at
     * least; clipped to that line) and the message:
     * <pre>
     * values where colr = 1
     *              ^^^^
     * unknown field 'colr' for values; did you mean 'color'?
     * </pre>
     */
    public String render(String source) {
        String src = source == null ? "" : source;
        int s = Math.max(0, Math.min(start, src.length()));
        int lineStart = src.lastIndexOf('\n', s - 1) + 1;
        int lineEnd = src.indexOf('\n', s);
        if (lineEnd < 0) lineEnd = src.length();
        int e = Math.max(s + 1, Math.min(end, lineEnd));
        if (lineEnd - lineStart > LONG_LINE) {
            // A statement of 100,000 characters is shown around its spot, not repeated in full with as many blanks.
            int caretEnd = Math.min(e, s + 2 * CONTEXT);
            int from = Math.max(lineStart, s - CONTEXT), to = Math.min(lineEnd, caretEnd + CONTEXT);
            String head = from > lineStart ? "..." : "", tail = to < lineEnd ? "..." : "";
            StringBuilder b = new StringBuilder(head).append(src, from, to).append(tail).append('\n').append(head.replace('.', ' '));
            for (int i = from; i < s; i++) b.append(src.charAt(i) == '\t' ? '\t' : ' ');
            return b.append("^".repeat(Math.max(1, caretEnd - s))).append('\n').append(fullMessage()).toString();
        }
        String line = src.substring(lineStart, lineEnd);
        StringBuilder b = new StringBuilder(line).append('\n');
        for (int i = lineStart; i < s; i++) b.append(src.charAt(i) == '\t' ? '\t' : ' ');
        for (int i = s; i < e; i++) b.append('^');
        return b.append('\n').append(fullMessage()).toString();
    }
}
