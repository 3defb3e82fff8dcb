package bufq.shell.session;

import bufq.lang.NearNames;

import java.util.Collection;

/** "Did you mean": the closest known name within a small edit distance. */
public final class Suggest {
    private Suggest() {}

    /** The candidate nearest to {@code word}, or null when none is close enough to be a typo. */
    public static String closest(String word, Collection<String> candidates) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = NearNames.editDistance(word.toLowerCase(), c.toLowerCase());
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        int allowed = Math.max(1, Math.min(3, word.length() / 3));
        return bestD <= allowed ? best : null;
    }

    /** {@code "; did you mean 'x'?"} or empty. */
    public static String hint(String word, Collection<String> candidates) {
        String c = closest(word, candidates);
        return c == null ? "" : "; did you mean '" + c + "'?";
    }

}
