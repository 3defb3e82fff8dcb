package bufq.export;

import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.Arrays;
import java.util.List;

/**
 * Occupied bytes per step of one colour: per allocation, the union of the byte ranges
 * {@code [offset, offset + size)} of its values live then, each byte once. Per allocation a sweep over
 * time keeps, in a segment tree over its values' range boundaries, how many live values cover each
 * piece, so the covered length is known after every step: O(n log n) in all.
 */
final class Occupancy {
    private Occupancy() {}

    static long[] byStep(HloModule m, int color) {
        int steps = m.steps();
        long[] diff = new long[steps + 1];
        for (BufferAllocation a : m.allocations()) {
            if (a.color() != color) continue;
            List<HloValue> values = m.valuesIn(a.index());
            long[] bounds = new long[2 * values.size()];
            long[] events = new long[2 * values.size()];   // time << 32 | value position << 1 | (1 at the end)
            int n = 0, e = 0;
            for (int i = 0; i < values.size(); i++) {
                HloValue v = values.get(i);
                if (!v.hasRange() || v.size() <= 0) continue;
                int s = Math.max(0, v.rangeStart()), end = Math.min(steps - 1, v.rangeEnd());
                if (end < s) continue;
                bounds[n++] = v.offset();
                bounds[n++] = v.offset() + v.size();
                events[e++] = (long) s << 32 | (long) i << 1;
                events[e++] = (long) (end + 1) << 32 | (long) i << 1 | 1;
            }
            if (e == 0) continue;
            Arrays.sort(bounds, 0, n);
            int distinct = 0;
            for (int i = 0; i < n; i++) if (distinct == 0 || bounds[i] != bounds[distinct - 1]) bounds[distinct++] = bounds[i];
            Cover cover = new Cover(Arrays.copyOf(bounds, distinct));
            Arrays.sort(events, 0, e);
            long held = 0;
            for (int k = 0; k < e; ) {
                int t = (int) (events[k] >>> 32);
                for (; k < e && (int) (events[k] >>> 32) == t; k++) {
                    HloValue v = values.get((int) (events[k] & 0xffffffffL) >>> 1);
                    cover.add(v.offset(), v.offset() + v.size(), (events[k] & 1) == 0 ? 1 : -1);
                }
                long now = cover.covered();
                diff[t] += now - held;
                held = now;
            }
        }
        long[] out = new long[steps];
        long acc = 0;
        for (int t = 0; t < steps; t++) out[t] = acc += diff[t];
        return out;
    }

    /** Counts over the pieces between sorted boundaries; {@link #covered} is the length with a count above 0. */
    private static final class Cover {
        private final long[] bounds;
        private final int[] count;
        private final long[] length;

        Cover(long[] bounds) {
            this.bounds = bounds;
            int pieces = Math.max(1, bounds.length - 1);
            this.count = new int[4 * pieces];
            this.length = new long[4 * pieces];
        }

        void add(long from, long to, int delta) {
            int lo = Arrays.binarySearch(bounds, from), hi = Arrays.binarySearch(bounds, to);
            if (lo < hi) add(1, 0, bounds.length - 1, lo, hi, delta);
        }

        private void add(int node, int l, int r, int lo, int hi, int delta) {
            if (hi <= l || r <= lo) return;
            if (lo <= l && r <= hi) {
                count[node] += delta;
            } else {
                int mid = (l + r) >>> 1;
                add(2 * node, l, mid, lo, hi, delta);
                add(2 * node + 1, mid, r, lo, hi, delta);
            }
            length[node] = count[node] > 0 ? bounds[r] - bounds[l] : r - l == 1 ? 0 : length[2 * node] + length[2 * node + 1];
        }

        long covered() { return length[1]; }
    }
}
