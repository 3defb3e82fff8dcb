package bufq.analysis.oom;

import bufq.units.PrintedSize;
import bufq.units.Units;

/**
 * Reading a figure out of a message line: a size after a key, text between two marks, a number at a
 * place. Shared by the parser of whole messages and the reader of their listed entries.
 */
final class MessageText {
    private MessageText() {}

    /** The size right after the first {@code key} in {@code s} at or after {@code from}, or null. */
    static PrintedSize sizeAfter(String s, String key, int from) {
        int i = s.indexOf(key, from);
        if (i < 0) return null;
        return Units.printedAt(s, i + key.length(), null);
    }

    static PrintedSize sizeAfter(String s, String key) { return sizeAfter(s, key, 0); }

    /** The text between {@code open} and the next {@code close} after it, or null. */
    static String between(String s, String open, String close) {
        int i = s.indexOf(open);
        if (i < 0) return null;
        int j = s.indexOf(close, i + open.length());
        return j < 0 ? null : s.substring(i + open.length(), j);
    }

    /** The decimal number starting at {@code i} (blanks skipped), or -1. */
    static long numberAt(String s, int i) {
        int n = s.length();
        while (i < n && s.charAt(i) == ' ') i++;
        long v = 0;
        int start = i;
        while (i < n && Character.isDigit(s.charAt(i)) && i - start < 18) v = v * 10 + (s.charAt(i++) - '0');
        return i == start ? -1 : v;
    }
}
