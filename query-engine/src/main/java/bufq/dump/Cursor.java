package bufq.dump;

/**
 * A position in one line of dump text with the small helpers the section parsers share. Failures
 * throw {@link Bad}, which the caller turns into a warning naming the file and line.
 */
final class Cursor {
    /** A malformed line: {@code getMessage()} says what was expected. */
    static final class Bad extends RuntimeException {
        Bad(String message) { super(message, null, false, false); }
    }

    String s;
    int pos;
    int end;
    /** Where the line starts in {@link #s}: columns in messages count from here. */
    private int lineStart;

    Cursor(String s) { this(s, 0, s.length()); }

    Cursor(String s, int pos, int end) { this(s, pos, end, 0); }

    Cursor(String s, int pos, int end, int lineStart) {
        this.s = s;
        this.pos = pos;
        this.end = end;
        this.lineStart = lineStart;
    }

    /** The current line of {@code ls}, read in place (no copy of the line), from column {@code col} (0-based). */
    static Cursor at(Lines ls, int col) {
        return new Cursor(ls.text, ls.start + col, ls.end, ls.start);
    }

    /**
     * This cursor moved to the current line of {@code ls}, from column {@code col}: a part that reads
     * a million lines keeps one cursor instead of making one a line.
     */
    Cursor reset(Lines ls, int col) {
        s = ls.text;
        pos = ls.start + col;
        end = ls.end;
        lineStart = ls.start;
        return this;
    }

    /** As {@link #reset(Lines, int)}, over {@code s[pos, end)} of a line starting at {@code lineStart}. */
    Cursor reset(String s, int pos, int end, int lineStart) {
        this.s = s;
        this.pos = pos;
        this.end = end;
        this.lineStart = lineStart;
        return this;
    }

    boolean atEnd() { return pos >= end; }
    char peek() { return pos < end ? s.charAt(pos) : '\0'; }

    boolean match(String lit) {
        if (s.startsWith(lit, pos) && pos + lit.length() <= end) {
            pos += lit.length();
            return true;
        }
        return false;
    }

    void expect(String lit) {
        if (!match(lit)) throw bad("expected '" + lit + "'");
    }

    /** A non-negative decimal that fits a long; overflow is an error, never wrapped. */
    long number() {
        int start = pos;
        long v = 0;
        while (pos < end) {
            char c = s.charAt(pos);
            if (c < '0' || c > '9') break;
            // The division only near the limit: the batch runs' compiler does not turn a division by
            // a constant into a multiplication (one per digit was half a second of a 1M-value load).
            if (v > (Long.MAX_VALUE - 9) / 10 && v > (Long.MAX_VALUE - (c - '0')) / 10) throw bad("number too large for 64 bits");
            v = v * 10 + (c - '0');
            pos++;
        }
        if (pos == start) throw bad("expected a number");
        return v;
    }

    int intNumber() {
        long v = number();
        if (v > Integer.MAX_VALUE) throw bad("number too large");
        return (int) v;
    }

    /** Index of {@code stop} at or after the cursor, within the line; the cursor does not move. */
    int find(String stop) {
        int i = s.indexOf(stop, pos);
        return i < 0 || i + stop.length() > end ? -1 : i;
    }

    /** Text up to (not including) {@code stop}, or to the end when absent. */
    String until(char stop) {
        int i = s.indexOf(stop, pos);
        if (i < 0 || i > end) i = end;
        String r = s.substring(pos, i);
        pos = i;
        return r;
    }

    /** Text up to {@code stop} which must occur; the cursor lands after it. */
    String upTo(String stop) {
        int i = s.indexOf(stop, pos);
        if (i < 0 || i + stop.length() > end) throw bad("expected '" + stop + "'");
        String r = s.substring(pos, i);
        pos = i + stop.length();
        return r;
    }

    String rest() {
        String r = s.substring(pos, end);
        pos = end;
        return r;
    }

    Bad bad(String expected) {
        String found = pos < end ? "found '" + clip(s.substring(pos, Math.min(end, pos + 20))) + "'" : "found end of line";
        return new Bad(expected + " at column " + (pos - lineStart + 1) + ", " + found);
    }

    private static String clip(String t) {
        return t.replace('\t', ' ');
    }
}
