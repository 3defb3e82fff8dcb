package bufq.oom;

/**
 * The paste's lines, one at a time, with their 1-based numbers and log prefixes removed: a glog
 * prefix ({@code E1127 14:02:11.123 1234 file.cc:42] }), an ISO time with level and source
 * ({@code 2024-05-01 12:00:00.1 E external/xla/...cc:2732] }), leading blanks and tabs. Linear:
 * each character is looked at a bounded number of times.
 */
final class Lines {
    /** Lines longer than this are read up to here: a message line is never this long. */
    static final int MAX_LINE = 1 << 16;

    private final String text;
    private int pos;
    private int number;
    private String peeked;
    private int peekedEnd;
    private boolean binary, peekedBinary;

    Lines(String text) { this.text = text; }

    /** The next line, cleaned, or null at the end. */
    String next() {
        if (peeked != null) {
            String p = peeked;
            peeked = null;
            pos = peekedEnd;
            number++;
            binary = peekedBinary;
            return p;
        }
        if (pos >= text.length()) return null;
        int nl = text.indexOf('\n', pos);
        int end = nl < 0 ? text.length() : nl;
        String raw = text.substring(pos, Math.min(end, pos + MAX_LINE));
        pos = nl < 0 ? text.length() : nl + 1;
        number++;
        binary = raw.indexOf('\0') >= 0;
        return clean(raw);
    }

    /** The line after the last one {@link #next} returned, without moving past it; null at the end. */
    String peek() {
        if (peeked != null) return peeked;
        if (pos >= text.length()) return null;
        int save = pos, n = number;
        boolean b = binary;
        String s = next();
        peeked = s;
        peekedEnd = pos;
        peekedBinary = binary;
        pos = save;
        number = n;
        binary = b;
        return s;
    }

    /** Number of the line {@link #next} returned last. */
    int number() { return number; }

    /** Whether the line {@link #next} returned last held NUL bytes (binary data). */
    boolean binary() { return binary; }

    static String clean(String raw) {
        String s = raw;
        if (!s.isEmpty() && s.charAt(s.length() - 1) == '\r') s = s.substring(0, s.length() - 1);
        int b = s.indexOf("] ");
        if (b > 0 && b < 200 && isLogPrefix(s, b)) s = s.substring(b + 2);
        return s.strip();
    }

    /** Whether {@code s[0, close)} is a log prefix: ends in {@code file:N} and starts with a level letter or a date. */
    private static boolean isLogPrefix(String s, int close) {
        int i = close - 1;
        int digits = 0;
        while (i >= 0 && Character.isDigit(s.charAt(i))) {
            i--;
            digits++;
        }
        if (digits == 0 || i < 0 || s.charAt(i) != ':') return false;
        char c = s.isEmpty() ? ' ' : s.strip().charAt(0);
        return "IWEF".indexOf(c) >= 0 || Character.isDigit(c) || c == '[';
    }
}
