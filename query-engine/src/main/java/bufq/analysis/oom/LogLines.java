package bufq.analysis.oom;

import java.util.Arrays;
import java.util.concurrent.CancellationException;

/**
 * The paste's lines, one at a time, with their 1-based numbers and log prefixes removed: a glog
 * prefix ({@code E1127 14:02:11.123 1234 file.cc:42] }), an ISO time with level and source
 * ({@code 2024-05-01 12:00:00.1 E external/xla/...cc:2732] }), leading blanks and tabs.
 *
 * <p>Linear in the text: a line becomes a string only when asked for; whether a line holds one of a
 * few fixed words is answered in one pass over its characters, so a 50 MB log of lines that hold
 * none of them is read once.
 */
final class LogLines {
    /** Lines longer than this are read up to here: a message line is never this long. */
    static final int MAX_LINE = 1 << 16;

    private final String text;
    private final String[][] byFirst = new String[128][];   // the words by their first character (ASCII)
    private int pos;                // start of the next line
    private int start, end;         // the current line
    private int prevStart = -1, prevEnd = -1;
    private int number;
    private int nul = -1;           // the first NUL at or after nulFrom (MAX_VALUE: none)
    private int nulFrom = Integer.MAX_VALUE;
    // Lines cleaned already, by their start: the reader asks for a line as the next one, then as the
    // current one, then as the one before; each is cleaned once.
    private String cleanNext, cleanCur, cleanPrev;
    private int cleanNextAt = -1, cleanCurAt = -1, cleanPrevAt = -1;

    /** @param words the words {@link #has} is asked about, by index */
    LogLines(String text, String... words) {
        this.text = text;
        for (String w : words) {
            String[] had = byFirst[w.charAt(0)];
            String[] now = had == null ? new String[1] : Arrays.copyOf(had, had.length + 1);
            now[now.length - 1] = w;
            byFirst[w.charAt(0)] = now;
        }
    }

    /**
     * Moves to the next line; false at the end. Every 1,024 lines it looks at the thread's interrupt
     * (Ctrl-C in the shell), so a long paste stops within milliseconds.
     *
     * @throws CancellationException when the thread is interrupted
     */
    boolean advance() {
        if (pos >= text.length()) return false;
        if ((number & 1023) == 1023 && Thread.currentThread().isInterrupted()) throw new CancellationException("oom cancelled");
        int nl = text.indexOf('\n', pos);
        prevStart = start;
        prevEnd = number == 0 ? -1 : end;
        cleanPrev = cleanCur;
        cleanPrevAt = cleanCurAt;
        cleanCur = cleanNext;
        cleanCurAt = cleanNextAt;
        start = pos;
        end = nl < 0 ? text.length() : nl;
        pos = nl < 0 ? text.length() : nl + 1;
        number++;
        return true;
    }

    /**
     * Whether the current line holds one of the words: one pass over its characters, each compared
     * with the words' first characters (String.indexOf of a word is a slow loop without C2, and
     * batch runs use C1 alone).
     */
    boolean holdsAWord() {
        int stop = Math.min(end, start + MAX_LINE);
        for (int i = start; i < stop; i++) {
            char c = text.charAt(i);
            String[] ws = c < 128 ? byFirst[c] : null;
            if (ws == null) continue;
            for (String w : ws) if (text.startsWith(w, i)) return true;
        }
        return false;
    }

    /** Length of the current line as it is in the text. */
    int rawLength() { return end - start; }

    /** The current line as pasted (up to {@link #MAX_LINE}): what columns count in. */
    String raw() { return text.substring(start, Math.min(end, start + MAX_LINE)); }

    /** The line before the current one as pasted; empty on the first line. */
    String rawPrevious() { return prevEnd < 0 ? "" : text.substring(prevStart, Math.min(prevEnd, prevStart + MAX_LINE)); }

    /** The current line, cleaned. */
    String line() {
        if (cleanCurAt != start) {
            cleanCur = clean(text.substring(start, Math.min(end, start + MAX_LINE)));
            cleanCurAt = start;
        }
        return cleanCur;
    }

    /** The next line, cleaned, moving to it; null at the end. */
    String next() { return advance() ? line() : null; }

    /** The line after the current one, cleaned, without moving to it; null at the end. */
    String peek() {
        if (pos >= text.length()) return null;
        if (cleanNextAt != pos) {
            int nl = text.indexOf('\n', pos);
            int e = nl < 0 ? text.length() : nl;
            cleanNext = clean(text.substring(pos, Math.min(e, pos + MAX_LINE)));
            cleanNextAt = pos;
        }
        return cleanNext;
    }

    /** The line before the current one, cleaned; null on the first line. */
    String previous() {
        if (prevEnd < 0) return null;
        if (cleanPrevAt != prevStart) {
            cleanPrev = clean(text.substring(prevStart, Math.min(prevEnd, prevStart + MAX_LINE)));
            cleanPrevAt = prevStart;
        }
        return cleanPrev;
    }

    /** Number of the current line. */
    int number() { return number; }

    /** Whether the current line holds NUL bytes (binary data). */
    boolean binary() {
        if (nulFrom > start || nul < start) {
            int i = text.indexOf('\0', start);
            nul = i < 0 ? Integer.MAX_VALUE : i;
            nulFrom = start;
        }
        return nul < end;
    }

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
        char c = s.strip().charAt(0);
        return "IWEF".indexOf(c) >= 0 || Character.isDigit(c) || c == '[';
    }
}
