package bufq.eval;

import bufq.lang.QueryException;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Compiles the user's {@code ~} patterns with RE2/J, whose matching time is linear in the value's
 * length for every pattern: the JDK's backtracking engine ran {@code a?{2147483647}$} for ever,
 * past the time limit and Ctrl-C. RE2 syntax has no back-references or look-around; a pattern it
 * refuses, or one whose repetitions expand past {@link #MAX_SIZE}, is a diagnostic at its spot.
 */
final class Regex {
    /** Longest regular expression accepted, in characters. */
    static final int MAX_LENGTH = 1000;

    /**
     * Most pattern elements once repetitions are expanded: RE2/J writes {@code ((a{1000}){1000}){1000}}
     * out in full and ran out of memory compiling it. 100,000 compiles in milliseconds.
     */
    static final long MAX_SIZE = 100_000;

    private Regex() {}

    /**
     * The compiled pattern; {@code start} and {@code end} span the pattern's string literal in
     * {@code src}, so an error points into it.
     */
    static Pattern compile(String regex, String src, int start, int end) throws QueryException {
        if (regex.length() > MAX_LENGTH) {
            throw new QueryException(start, end, "regular expression too long (" + regex.length() + " characters, at most " + MAX_LENGTH + ")");
        }
        long size = expandedSize(regex);
        if (size > MAX_SIZE) {
            throw new QueryException(start, end, "regular expression too large once its repetitions are expanded (over "
                    + MAX_SIZE + " elements); use smaller counts in {n}");
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            String fragment = e.getPattern();
            int at = fragment == null || fragment.isEmpty() || src == null || end - 1 > src.length() || start + 1 > end - 1
                    ? -1 : src.substring(start + 1, end - 1).indexOf(fragment);
            String why = "bad regular expression: " + e.getDescription().toLowerCase(Locale.ROOT) + hint(fragment);
            // The caret marks the spot; where escapes in the string moved it, the message names it.
            if (at < 0) throw new QueryException(start, end, why + " at '" + fragment + "'");
            throw new QueryException(start + 1 + at, start + 1 + at + fragment.length(), why);
        } catch (StackOverflowError e) {
            throw new QueryException(start, end, "regular expression nested too deeply");
        }
    }

    /** What RE2 syntax offers instead of the Perl forms people paste. */
    private static String hint(String fragment) {
        if (fragment.startsWith("(?=") || fragment.startsWith("(?!") || fragment.startsWith("(?<")) {
            return " (look-around is not supported: RE2 syntax, see docs/query-language.md)";
        }
        if (fragment.length() == 2 && fragment.charAt(0) == '\\' && Character.isDigit(fragment.charAt(1))) {
            return " (back-references are not supported: RE2 syntax, see docs/query-language.md)";
        }
        return "";
    }

    /**
     * An over-estimate of the pattern's size with every {@code {n,m}} written out: each atom counts
     * one, a group the sum of its alternatives, a repeat multiplies what it repeats by its larger count.
     */
    static long expandedSize(String re) {
        Deque<long[]> frames = new ArrayDeque<>();   // {total, last atom's size}
        long[] f = {0, 0};
        int n = re.length();
        for (int i = 0; i < n; i++) {
            char c = re.charAt(i);
            long atom = 1;
            switch (c) {
                case '\\':
                    i++;          // the escaped character; \p{..} and \x{..} only count more, which is fine
                    break;
                case '[':
                    // A class is one element; its first ']' (after an optional '^') is a member.
                    int j = i + 1;
                    if (j < n && re.charAt(j) == '^') j++;
                    if (j < n && re.charAt(j) == ']') j++;
                    while (j < n && re.charAt(j) != ']') j += re.charAt(j) == '\\' ? 2 : 1;
                    i = Math.min(j, n);
                    break;
                case '(':
                    frames.push(f);
                    f = new long[] {0, 0};
                    continue;
                case ')':
                    if (frames.isEmpty()) break;
                    atom = f[0] + 1;
                    f = frames.pop();
                    break;
                case '{':
                    int close = re.indexOf('}', i);
                    long count = close < 0 ? -1 : count(re.substring(i + 1, close));
                    if (count >= 0) {
                        f[0] = saturate(f[0] + f[1] * Math.max(0, count - 1));
                        f[1] = saturate(f[1] * Math.max(1, count));
                        i = close;
                        continue;
                    }
                    break;
                case '*', '+', '?', '|':
                    f[0] = saturate(f[0] + 1);
                    continue;
                default:
                    break;
            }
            f[1] = atom;
            f[0] = saturate(f[0] + atom);
        }
        while (!frames.isEmpty()) {
            long inner = f[0];
            f = frames.pop();
            f[0] = saturate(f[0] + inner);
        }
        return f[0];
    }

    /** The larger count of a repeat's {@code n}, {@code n,} or {@code n,m}, or -1 when it is not one. */
    private static long count(String body) {
        if (!body.matches("\\d{1,9}(,\\d{0,9})?")) return -1;
        int comma = body.indexOf(',');
        if (comma < 0) return Long.parseLong(body);
        long lo = Long.parseLong(body.substring(0, comma));
        return comma == body.length() - 1 ? lo + 1 : Math.max(lo, Long.parseLong(body.substring(comma + 1)));
    }

    private static long saturate(long v) { return v < 0 || v > 1L << 40 ? 1L << 40 : v; }
}
