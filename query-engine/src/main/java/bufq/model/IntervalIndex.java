package bufq.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Static interval index over inclusive {@code [start, end]} ranges: stabbing and overlap queries in
 * O(log n + k), no scan of every interval.
 *
 * <p>Intervals are sorted by start and laid out as an implicit balanced tree (the middle of each
 * slice is the node); each node keeps the maximum end of its slice so whole subtrees that end
 * before the query are skipped.
 */
public final class IntervalIndex {
    private final int[] starts;
    private final int[] ends;
    private final int[] ids;     // caller's ids, in start order
    private final int[] maxEnd;  // max end over the slice rooted at each position

    /** @param starts,ends ranges per id (id = array position); entries with end &lt; start are skipped */
    public IntervalIndex(int[] starts, int[] ends) {
        int n = 0;
        for (int i = 0; i < starts.length; i++) if (ends[i] >= starts[i]) n++;
        // Sort (start, id) pairs packed in longs: no boxing, stable by id for equal starts.
        long[] order = new long[n];
        for (int i = 0, j = 0; i < starts.length; i++) {
            if (ends[i] >= starts[i]) order[j++] = ((long) starts[i] << 32) | (i & 0xffffffffL);
        }
        Arrays.sort(order);
        this.starts = new int[n];
        this.ends = new int[n];
        this.ids = new int[n];
        for (int i = 0; i < n; i++) {
            int id = (int) order[i];
            this.starts[i] = starts[id];
            this.ends[i] = ends[id];
            this.ids[i] = id;
        }
        this.maxEnd = new int[n];
        build(0, n);
    }

    private int build(int lo, int hi) {
        if (lo >= hi) return Integer.MIN_VALUE;
        int mid = (lo + hi) >>> 1;
        int m = Math.max(ends[mid], Math.max(build(lo, mid), build(mid + 1, hi)));
        maxEnd[mid] = m;
        return m;
    }

    public int size() { return ids.length; }

    /** Calls {@code sink} with the id of every interval that overlaps {@code [from, to]}. */
    public void overlapping(int from, int to, IntConsumer sink) {
        // Iterative walk with an explicit stack keeps deep trees off the Java stack.
        int[] lo = new int[64], hi = new int[64];
        int sp = 0;
        lo[sp] = 0; hi[sp] = ids.length; sp++;
        while (sp > 0) {
            sp--;
            int l = lo[sp], h = hi[sp];
            if (l >= h) continue;
            int mid = (l + h) >>> 1;
            if (maxEnd[mid] < from) continue;           // everything here ends too early
            if (sp + 2 > lo.length) { lo = Arrays.copyOf(lo, lo.length * 2); hi = Arrays.copyOf(hi, hi.length * 2); }
            lo[sp] = l; hi[sp] = mid; sp++;             // left half: starts are all <= starts[mid]
            if (starts[mid] <= to) {
                if (ends[mid] >= from) sink.accept(ids[mid]);
                lo[sp] = mid + 1; hi[sp] = h; sp++;     // right half only if some start can be <= to
            }
        }
    }

    /** Ids of the intervals containing {@code t}. */
    public int[] at(int t) {
        return during(t, t);
    }

    /** Ids of the intervals overlapping {@code [from, to]}, in ascending id order. */
    public int[] during(int from, int to) {
        int[][] buf = {new int[16]};
        int[] n = {0};
        overlapping(from, to, id -> {
            if (n[0] == buf[0].length) buf[0] = Arrays.copyOf(buf[0], n[0] * 2);
            buf[0][n[0]++] = id;
        });
        int[] r = Arrays.copyOf(buf[0], n[0]);
        Arrays.sort(r);
        return r;
    }
}
