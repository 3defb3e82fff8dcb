package bufq.shell;

import java.util.Collection;

/** "Did you mean": the closest known name within a small edit distance. */
public final class Suggest {
    private Suggest() {}

    /** The candidate nearest to {@code word}, or null when none is close enough to be a typo. */
    public static String closest(String word, Collection<String> candidates) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(word.toLowerCase(), c.toLowerCase());
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

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
