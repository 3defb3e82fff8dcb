package bufq.lang;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** "Did you mean": the valid names within a small edit distance of what was typed. */
public final class NearNames {
    private NearNames() {}

    /** Up to three candidates nearest to {@code typed}, nearest first; empty when none is close. */
    public static List<String> near(String typed, Collection<String> candidates) {
        String t = typed.toLowerCase(Locale.ROOT);
        int limit = Math.max(1, Math.min(3, t.length() / 3 + 1));
        List<String> best = new ArrayList<>();
        List<Integer> dist = new ArrayList<>();
        for (String c : candidates) {
            if (c.equals(typed)) continue;
            String lc = c.toLowerCase(Locale.ROOT);
            int d = lc.startsWith(t) && t.length() >= 3 ? 1 : distance(t, lc, limit);
            if (d > limit) continue;
            int i = 0;
            while (i < dist.size() && dist.get(i) <= d) i++;
            best.add(i, c);
            dist.add(i, d);
        }
        return best.size() > 3 ? List.copyOf(best.subList(0, 3)) : List.copyOf(best);
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
