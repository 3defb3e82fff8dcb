package bufq.model;

import java.util.Arrays;

/**
 * Length covered by a changing multiset of half-open intervals {@code [from, to)} over fixed cut
 * points: add and remove in O(log n), covered length in O(1). The sweep behind "peak of the union of
 * live byte ranges" without rescanning every value at every step.
 */
final class CoverageTree {
    private final long[] cuts;
    private final int[] count;
    private final long[] covered;
    private final int n;

    /** @param points every interval end point that will be added (duplicates allowed) */
    CoverageTree(long[] points) {
        long[] c = points.clone();
        Arrays.sort(c);
        int k = 0;
        for (int i = 0; i < c.length; i++) if (i == 0 || c[i] != c[i - 1]) c[k++] = c[i];
        cuts = Arrays.copyOf(c, k);
        n = Math.max(1, k - 1);
        count = new int[4 * n];
        covered = new long[4 * n];
    }

    void add(long from, long to) { update(from, to, +1); }
    void remove(long from, long to) { update(from, to, -1); }
    long covered() { return cuts.length < 2 ? 0 : covered[1]; }

    private void update(long from, long to, int delta) {
        if (to <= from || cuts.length < 2) return;
        int l = Arrays.binarySearch(cuts, from), r = Arrays.binarySearch(cuts, to);
        if (l < 0 || r < 0) throw new IllegalArgumentException("interval end not among the cut points");
        update(1, 0, n, l, r, delta);
    }

    /** Node covers elementary segments [lo, hi) (segment i is cuts[i]..cuts[i+1]). */
    private void update(int node, int lo, int hi, int l, int r, int delta) {
        if (r <= lo || hi <= l) return;
        if (l <= lo && hi <= r) {
            count[node] += delta;
        } else {
            int mid = (lo + hi) >>> 1;
            update(2 * node, lo, mid, l, r, delta);
            update(2 * node + 1, mid, hi, l, r, delta);
        }
        if (count[node] > 0) covered[node] = cuts[hi] - cuts[lo];
        else if (hi - lo == 1) covered[node] = 0;
        else covered[node] = covered[2 * node] + covered[2 * node + 1];
    }
}
