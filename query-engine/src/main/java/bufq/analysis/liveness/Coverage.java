package bufq.analysis.liveness;

import java.util.Arrays;

/**
 * Length covered by a changing multiset of half-open intervals {@code [from, to)}, each one of a
 * fixed set given up front ({@link Intervals}) and named by its place there: add and remove, and the
 * covered length in O(1). The sweep behind "peak of the union of live byte ranges" without
 * rescanning every value at every step.
 *
 * <p>The intervals' end points cut the line into segments. Where the intervals span few segments
 * each, as values packed side by side in an allocation do (1.16 on average over a million-value
 * module's shared allocations), a count per segment is kept and an update walks the segments it
 * spans; otherwise a segment tree does it in O(log n) nodes. The choice is made from the intervals
 * themselves, so neither way costs much more than the other would.
 */
final class Coverage {
    /**
     * The intervals of a coverage, cut into segments once: several coverages over the same intervals
     * share them. Immutable.
     */
    static final class Intervals {
        private final long[] cuts;
        // Interval i spans segments [first[i], last[i]) (segment j is cuts[j]..cuts[j+1]); empty when equal.
        private final int[] first, last;
        private final int segments;
        private final boolean flat;

        /** @param bounds the intervals as pairs {@code from, to}; an empty or inverted pair covers nothing */
        Intervals(long[] bounds) {
            this(bounds, null);
        }

        /** As {@link #Intervals(long[])}, counted flat or by a tree as {@code flat} says (tests try both), or by the rule when null. */
        Intervals(long[] bounds, Boolean flat) {
            // Cut points from the intervals that cover something.
            long[] c = new long[bounds.length];
            int points = 0;
            for (int i = 0; i + 1 < bounds.length; i += 2) {
                if (bounds[i + 1] <= bounds[i]) continue;
                c[points++] = bounds[i];
                c[points++] = bounds[i + 1];
            }
            Arrays.sort(c, 0, points);
            int k = 0;
            for (int i = 0; i < points; i++) if (i == 0 || c[i] != c[i - 1]) c[k++] = c[i];
            cuts = Arrays.copyOf(c, k);
            segments = Math.max(1, k - 1);
            int pairs = bounds.length / 2;
            first = new int[pairs];
            last = new int[pairs];
            // Work per update: the segments spanned when flat, about two nodes per tree level otherwise.
            long spanned = 0;
            for (int i = 0; i < pairs; i++) {
                if (bounds[2 * i + 1] <= bounds[2 * i]) continue;
                first[i] = Arrays.binarySearch(cuts, bounds[2 * i]);
                last[i] = Arrays.binarySearch(cuts, bounds[2 * i + 1]);
                spanned += last[i] - first[i];
            }
            int levels = 32 - Integer.numberOfLeadingZeros(segments);
            this.flat = flat != null ? flat : spanned <= (long) pairs * 2 * (levels + 1);
        }

        /** Whether coverages over these intervals count per segment (else by a tree). */
        boolean flat() { return flat; }

        int count() { return first.length; }
    }

    private final Intervals iv;
    // Flat: how many intervals hold each segment, and the length held.
    private final int[] segmentCount;
    private long flatCovered;
    // Tree: per node, the intervals covering all of it, and the length covered beneath it.
    private final int[] count;
    private final long[] covered;

    /** An empty coverage over {@code intervals}. */
    Coverage(Intervals intervals) {
        iv = intervals;
        int n = intervals.segments;
        segmentCount = iv.flat ? new int[n] : null;
        count = iv.flat ? null : new int[4 * n];
        covered = iv.flat ? null : new long[4 * n];
    }

    /** Adds interval {@code i} of the {@link Intervals} (once more, if it is held already). */
    void add(int i) { update(i, +1); }

    /** Removes one of interval {@code i}'s additions. */
    void remove(int i) { update(i, -1); }

    long covered() { return iv.cuts.length < 2 ? 0 : iv.flat ? flatCovered : covered[1]; }

    private void update(int i, int delta) {
        int l = iv.first[i], r = iv.last[i];
        if (l >= r) return;
        if (!iv.flat) {
            update(1, 0, iv.segments, l, r, delta);
            return;
        }
        int[] held = segmentCount;
        long[] cuts = iv.cuts;
        for (int j = l; j < r; j++) {
            if (delta > 0) {
                if (held[j]++ == 0) flatCovered += cuts[j + 1] - cuts[j];
            } else if (--held[j] == 0) {
                flatCovered -= cuts[j + 1] - cuts[j];
            }
        }
    }

    /** Node covers segments [lo, hi). */
    private void update(int node, int lo, int hi, int l, int r, int delta) {
        if (r <= lo || hi <= l) return;
        if (l <= lo && hi <= r) {
            count[node] += delta;
        } else {
            int mid = (lo + hi) >>> 1;
            update(2 * node, lo, mid, l, r, delta);
            update(2 * node + 1, mid, hi, l, r, delta);
        }
        long[] cuts = iv.cuts;
        if (count[node] > 0) covered[node] = cuts[hi] - cuts[lo];
        else if (hi - lo == 1) covered[node] = 0;
        else covered[node] = covered[2 * node] + covered[2 * node + 1];
    }
}
