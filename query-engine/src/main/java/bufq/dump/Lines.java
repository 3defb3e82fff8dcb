package bufq.dump;

/**
 * Walks the lines of a region of text without copying it: after {@link #next()} the current line is
 * {@code text[start, end)} (no newline, a trailing CR dropped) and {@link #number} is 1-based in the file.
 */
final class Lines {
    final String text;
    private final int limit;
    private int nextStart;
    int start;
    int end;
    long number;
    /** True when the region's last line had no newline (a cut-off file). */
    boolean lastUnterminated;

    Lines(String text, int from, int to, long firstLine) {
        this.text = text;
        this.limit = to;
        this.nextStart = from;
        this.number = firstLine - 1;
    }

    boolean next() {
        if (nextStart >= limit) return false;
        start = nextStart;
        int nl = text.indexOf('\n', start);
        if (nl < 0 || nl >= limit) {
            end = limit;
            nextStart = limit;
            lastUnterminated = nl < 0;
        } else {
            end = nl;
            nextStart = nl + 1;
        }
        if (end > start && text.charAt(end - 1) == '\r') end--;
        number++;
        return true;
    }

    /** Steps back so the current line is read again by the next {@link #next()}. */
    void pushBack() {
        nextStart = start;
        number--;
    }

    String line() { return text.substring(start, end); }
    int length() { return end - start; }
    boolean isBlank() {
        for (int i = start; i < end; i++) if (text.charAt(i) != ' ' && text.charAt(i) != '\t') return false;
        return true;
    }
    boolean startsWith(String p) { return end - start >= p.length() && text.startsWith(p, start); }
    char charAt(int i) { return start + i < end ? text.charAt(start + i) : '\0'; }
    /** Column of {@code lit} in the current line, or -1 (the search stops at the line's end). */
    int indexOf(String lit) {
        int n = lit.length();
        char c0 = lit.charAt(0);
        for (int i = start, last = end - n; i <= last; i++) {
            if (text.charAt(i) == c0 && text.startsWith(lit, i)) return i - start;
        }
        return -1;
    }

    boolean atEnd() { return nextStart >= limit; }
}
