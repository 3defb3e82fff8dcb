package bufq.dump.text;

import bufq.dump.text.Lines.Literal;

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
    /**
     * The ASCII bytes of {@link #s} where a {@link Lines} had them, else null:
     * {@code b[base + i] == s.charAt(i)}. The number and literal reads use them (see {@link Lines}).
     */
    private byte[] b;
    private int base;

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
        return new Cursor(ls.text).reset(ls, col);
    }

    /**
     * This cursor moved to the current line of {@code ls}, from column {@code col}: a part that reads
     * a million lines keeps one cursor instead of making one a line.
     */
    Cursor reset(Lines ls, int col) {
        return reset(ls, ls.start + col, ls.end);
    }

    /** As {@link #reset(Lines, int)}, over {@code ls.text[pos, end)} of the current line. */
    Cursor reset(Lines ls, int pos, int end) {
        s = ls.text;
        b = ls.bytes;
        base = ls.base;
        this.pos = pos;
        this.end = end;
        lineStart = ls.start;
        return this;
    }

    boolean atEnd() { return pos >= end; }
    char peek() {
        if (pos >= end) return '\0';
        return b != null ? (char) (b[base + pos] & 0xFF) : s.charAt(pos);
    }

    boolean match(String lit) {
        int n = lit.length();
        if (pos + n > end) return false;
        if (b == null) {
            if (!s.startsWith(lit, pos)) return false;
        } else {
            for (int k = 0, i = base + pos; k < n; k++) if (b[i + k] != lit.charAt(k)) return false;
        }
        pos += n;
        return true;
    }

    /** As {@link #match(String)}, for a literal of a line read a million times. */
    boolean match(Literal lit) {
        int n = lit.length();
        if (pos + n > end) return false;
        if (b == null ? !s.startsWith(lit.text, pos) : !lit.isAt(b, base + pos)) return false;
        pos += n;
        return true;
    }

    void expect(Literal lit) {
        if (!match(lit)) throw bad("expected '" + lit + "'");
    }

    /** Whether the next character is {@code ch}, moving past it if so. */
    boolean match(char ch) {
        if (peek() != ch) return false;
        pos++;
        return true;
    }

    void expect(char ch) {
        if (!match(ch)) throw bad("expected '" + ch + "'");
    }

    void expect(String lit) {
        if (!match(lit)) throw bad("expected '" + lit + "'");
    }

    /** A non-negative decimal that fits a long; overflow is an error, never wrapped. */
    long number() {
        if (b != null) return byteNumber();
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

    private long byteNumber() {
        int start = pos;
        long v = 0;
        for (int i = base + pos, to = base + end; i < to; i++) {
            int c = b[i];
            if (c < '0' || c > '9') break;
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

    /** Moves to the end of a value's name: the first '{', ' ' or '>' (or the line's end). */
    void skipName() {
        if (b == null) {
            for (char ch; pos < end && (ch = s.charAt(pos)) != '{' && ch != ' ' && ch != '>'; ) pos++;
            return;
        }
        int i = base + pos, to = base + end;
        for (byte ch; i < to && (ch = b[i]) != '{' && ch != ' ' && ch != '>'; ) i++;
        pos = i - base;
    }

    /** Index of {@code stop} at or after the cursor, within the line; the cursor does not move. */
    int find(char stop) {
        if (b == null) {
            int i = s.indexOf(stop, pos);
            return i < 0 || i >= end ? -1 : i;
        }
        for (int i = base + pos, to = base + end; i < to; i++) if (b[i] == stop) return i - base;
        return -1;
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
