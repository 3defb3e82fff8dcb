package bufq.dump.file;

/**
 * Makes text quoted from a hostile file safe to print on one line: line breaks and other control
 * characters become visible escapes ({@code \r}, {@code \n}, {@code \x1b}), so a message about a
 * CR-terminated or binary-laced dump stays one line and cannot drive the terminal.
 */
public final class OneLine {
    private OneLine() {}

    public static String of(String s) {
        if (s == null) return null;
        int i = 0;
        while (i < s.length() && !needsEscape(s.charAt(i))) i++;
        if (i == s.length()) return s;
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!needsEscape(c)) b.append(c);
            else if (c == '\r') b.append("\\r");
            else if (c == '\n') b.append("\\n");
            else if (c == '\t') b.append(' ');
            else if (c > 0xff) b.append(String.format("\\u%04x", (int) c));
            else b.append(String.format("\\x%02x", (int) c & 0xff));
        }
        return b.toString();
    }

    private static boolean needsEscape(char c) {
        // The bidi controls too (U+202E reverses what follows on the screen), as the formatters do.
        return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029'
                || c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    }
}
