package bufq.dump.text;

import java.nio.charset.StandardCharsets;

/**
 * Walks the lines of a region of text without copying it: after {@link #next()} the current line is
 * {@code text[start, end)} (no newline, a trailing CR dropped) and {@link #number} is 1-based in the file.
 *
 * <p>When the region is all ASCII and its bytes are at hand ({@link #bytes}), lines are found and
 * read in the bytes: a byte array is read in place, where each {@code String.charAt} is a call
 * with its own bounds check without the batch runs' optimizing compiler (18% of the samples of
 * reading a million values' allocation section; with bytes, and {@link Literal}s, that read takes
 * 1.2 s instead of 1.33).
 */
public final class Lines {
    final String text;
    /** The region's bytes, or null: {@code bytes[base + i] == text.charAt(i)} for every i of the region. */
    final byte[] bytes;
    final int base;
    private final int limit;
    private int nextStart;
    int start;
    int end;
    long number;
    /** True when the region's last line had no newline (a cut-off file). */
    boolean lastUnterminated;

    public Lines(String text, int from, int to, long firstLine) {
        this(text, from, to, firstLine, null, 0);
    }

    /**
     * Lines of a region whose ASCII bytes are at hand: {@code bytes[base + i] == text.charAt(i)}, or
     * {@code bytes} null (an interner's view gives them: {@link Interner#bytesOf}).
     */
    Lines(String text, int from, int to, long firstLine, byte[] bytes, int base) {
        this.text = text;
        this.limit = to;
        this.nextStart = from;
        this.number = firstLine - 1;
        this.bytes = bytes;
        this.base = bytes == null ? 0 : base;
    }

    public boolean next() {
        if (nextStart >= limit) return false;
        start = nextStart;
        int nl = bytes != null ? newline(start) : text.indexOf('\n', start);
        if (nl < 0 || nl >= limit) {
            end = limit;
            nextStart = limit;
            lastUnterminated = nl < 0;
        } else {
            end = nl;
            nextStart = nl + 1;
        }
        if (end > start && charAt(end - 1 - start) == '\r') end--;
        number++;
        return true;
    }

    /** The next newline at or after {@code from} in the region's bytes, eight bytes a turn, or -1. */
    private int newline(int from) {
        int i = WordScan.indexOf(bytes, base + from, base + limit, (byte) '\n');
        if (i >= 0) return i - base;
        // Past the region, as String.indexOf would find it: RegionParse.readLines tells a cut-off file by it.
        return limit < text.length() ? text.indexOf('\n', limit) : -1;
    }

    /** Steps back so the current line is read again by the next {@link #next()}. */
    void pushBack() {
        nextStart = start;
        number--;
    }

    /** The region's text the lines are read from. */
    public String text() { return text; }
    /** Where the current line starts in {@link #text()}. */
    public int start() { return start; }
    /** Where the current line ends in {@link #text()} (before its newline). */
    public int end() { return end; }
    /** The current line's number in its file, from 1. */
    public long number() { return number; }

    public String line() { return text.substring(start, end); }
    int length() { return end - start; }
    boolean isBlank() {
        for (int i = start; i < end; i++) {
            int c = bytes != null ? bytes[base + i] : text.charAt(i);
            if (c != ' ' && c != '\t') return false;
        }
        return true;
    }
    public boolean startsWith(String p) {
        int n = p.length();
        if (end - start < n) return false;
        if (bytes == null) return text.startsWith(p, start);
        for (int k = 0, i = base + start; k < n; k++) if (bytes[i + k] != p.charAt(k)) return false;
        return true;
    }
    boolean startsWith(Literal p) {
        if (end - start < p.length()) return false;
        return bytes == null ? text.startsWith(p.text, start) : p.isAt(bytes, base + start);
    }
    char charAt(int i) {
        if (start + i >= end) return '\0';
        return bytes != null ? (char) (bytes[base + start + i] & 0xFF) : text.charAt(start + i);
    }
    /** Index in {@link #text} of the current line's first {@code c} at or after index {@code from}, or -1. */
    int indexOf(char c, int from) {
        if (bytes == null) {
            int i = text.indexOf(c, from);
            return i < end ? i : -1;
        }
        for (int i = base + from, to = base + end; i < to; i++) if (bytes[i] == c) return i - base;
        return -1;
    }

    /** Index in {@link #text} of the current line's last {@code c}, or -1. */
    int lastIndexOf(char c) {
        if (bytes == null) {
            int i = text.lastIndexOf(c, end - 1);
            return i >= start ? i : -1;
        }
        for (int i = end - 1; i >= start; i--) if (bytes[base + i] == c) return i;
        return -1;
    }

    public boolean atEnd() { return nextStart >= limit; }

    /**
     * A fixed ASCII piece of a dump line's grammar ({@code "> (size="}), with its bytes, for the parts
     * that read a million lines: matched against a region's bytes ({@link Lines#bytes}), a literal's own
     * {@code charAt} was a sixth of reading the allocation section without the optimizing compiler.
     */
    public static final class Literal {
        final String text;
        final byte[] bytes;

        private Literal(String text) {
            this.text = text;
            this.bytes = text.getBytes(StandardCharsets.US_ASCII);
        }

        static Literal of(String text) {
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) >= 0x80) throw new IllegalArgumentException("not ASCII: " + text);
            }
            return new Literal(text);
        }

        int length() { return bytes.length; }

        /** Whether {@code b[at, at + length)} is this literal (the caller checks the bounds). */
        boolean isAt(byte[] b, int at) {
            byte[] l = bytes;
            for (int k = 0; k < l.length; k++) if (b[at + k] != l[k]) return false;
            return true;
        }

        @Override public String toString() { return text; }
    }
}
