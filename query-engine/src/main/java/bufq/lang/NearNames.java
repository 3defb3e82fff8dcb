package bufq.lang;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * "Did you mean", the one policy for every name people type (fields, entities, functions, clauses,
 * steps, command arguments, commands, settings, options, devices, modules, help topics): the names
 * a cut-short word starts, else the names within a small edit distance of it, nearest first.
 */
public final class NearNames {
    private NearNames() {}

    /** Most names given: more than this and a list stops helping. */
    public static final int MAX = 3;

    /**
     * Up to {@link #MAX} candidates for {@code typed}: the one it is in another case; else the ones it
     * is the start of (two letters or more, when no more than {@link #MAX} are: {@code v5} meant
     * {@code v5e} or {@code v5p}, not the nearer stranger {@code v4}); else the ones within
     * {@code max(1, min(3, length / 3 + 1))} edits (a swap of two letters is one edit: {@code fti} is
     * {@code fit}; a longer name it starts counts as one edit), nearest first. Empty when none is close.
     */
    public static List<String> near(String typed, Collection<String> candidates) {
        List<String> prefixed = prefixed(typed, candidates);
        return prefixed.isEmpty() ? nearest(typed, candidates) : prefixed;
    }

    /**
     * {@code "; did you mean 'x'?"} or {@code "; did you mean 'v5e' or 'v5p'?"} (as a diagnostic
     * says it), or empty: of the {@link #near} names, the ones a cut-short word starts, else the
     * nearest alone, as a one-line message has room for one guess.
     */
    public static String hint(String typed, Collection<String> candidates) {
        List<String> names = prefixed(typed, candidates);
        if (names.isEmpty()) {
            List<String> nearest = nearest(typed, candidates);
            names = nearest.isEmpty() ? nearest : nearest.subList(0, 1);
        }
        return new Diagnostic(0, 0, "", names).fullMessage();
    }

    /**
     * The name {@code typed} is in another case alone; else the candidates it is the start of (two
     * letters or more), when there are no more than {@link #MAX}.
     */
    private static List<String> prefixed(String typed, Collection<String> candidates) {
        String t = typed.toLowerCase(Locale.ROOT);
        for (String c : candidates) if (!c.equals(typed) && c.equalsIgnoreCase(typed)) return List.of(c);
        List<String> out = new ArrayList<>();
        if (t.length() < 2) return out;
        for (String c : candidates) {
            String lc = c.toLowerCase(Locale.ROOT);
            if (lc.startsWith(t) && !lc.equals(t) && !out.contains(c)) out.add(c);
        }
        return out.size() <= MAX ? out : List.of();
    }

    /** Up to {@link #MAX} candidates within the edit limit, nearest first (ties in their order). */
    private static List<String> nearest(String typed, Collection<String> candidates) {
        String t = typed.toLowerCase(Locale.ROOT);
        int limit = Math.max(1, Math.min(3, t.length() / 3 + 1));
        List<String> best = new ArrayList<>();
        List<Integer> dist = new ArrayList<>();
        for (String c : candidates) {
            if (c.equals(typed) || best.contains(c)) continue;
            String lc = c.toLowerCase(Locale.ROOT);
            int d = lc.startsWith(t) && t.length() >= 3 ? 1 : distance(t, lc, limit);
            if (d > limit) continue;
            int i = 0;
            while (i < dist.size() && dist.get(i) <= d) i++;
            best.add(i, c);
            dist.add(i, d);
        }
        return best.size() > MAX ? List.copyOf(best.subList(0, MAX)) : List.copyOf(best);
    }

    /** Optimal-string-alignment distance (a swap counts as one edit), or {@code max + 1} when above max. */
    public static int distance(String a, String b, int max) {
        if (Math.abs(a.length() - b.length()) > max) return max + 1;
        if (a.length() > 64 || b.length() > 64) return max + 1;  // long names: never "near", keep it cheap
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1))
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }

    /** Levenshtein distance (insertions, deletions, substitutions), in two rows of memory. */
    public static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev; prev = cur; cur = t;
        }
        return prev[b.length()];
    }
}
