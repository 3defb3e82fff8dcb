package bufq.shell.session;

import bufq.lang.NearNames;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** "Did you mean": the known names that start with what was typed, else the closest within a small edit distance. */
public final class Suggest {
    private Suggest() {}

    /** Most names a prefix suggests; a prefix of more is too short to say which. */
    static final int MAX_PREFIXED = 3;

    /**
     * The candidate nearest to {@code word}, or null when none is close enough to be a typo: a swap
     * of two letters counts as one edit ({@code fti} is {@code fit}).
     */
    public static String closest(String word, Collection<String> candidates) {
        String w = word.toLowerCase(Locale.ROOT);
        int allowed = Math.max(1, Math.min(3, word.length() / 3));
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = NearNames.distance(w, c.toLowerCase(Locale.ROOT), allowed);
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        return bestD <= allowed ? best : null;
    }

    /**
     * The candidates {@code word} is the start of (two letters or more; at most {@link #MAX_PREFIXED}),
     * in their order: what a cut-short name ({@code v5}) meant, which edit distance ranks below a
     * shorter stranger ({@code v4}).
     */
    static List<String> prefixed(String word, Collection<String> candidates) {
        List<String> out = new ArrayList<>();
        if (word.length() < 2) return out;
        String w = word.toLowerCase(Locale.ROOT);
        for (String c : candidates) {
            String lc = c.toLowerCase(Locale.ROOT);
            if (lc.startsWith(w) && !lc.equals(w)) out.add(c);
        }
        return out.size() <= MAX_PREFIXED ? out : List.of();
    }

    /** {@code "; did you mean 'x'?"}, {@code "; did you mean 'v5e' or 'v5p'?"}, or empty. */
    public static String hint(String word, Collection<String> candidates) {
        List<String> p = prefixed(word, candidates);
        if (!p.isEmpty()) {
            StringBuilder b = new StringBuilder("; did you mean ");
            for (int i = 0; i < p.size(); i++)
                b.append(i == 0 ? "" : i == p.size() - 1 ? " or " : ", ").append('\'').append(p.get(i)).append('\'');
            return b.append("?").toString();
        }
        String c = closest(word, candidates);
        return c == null ? "" : "; did you mean '" + c + "'?";
    }
}
