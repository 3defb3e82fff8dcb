package bufq.analysis;

import java.util.TreeSet;
import java.util.Set;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Occupied bytes per step computed the slow, obvious way, independently of bufq's liveness code:
 * at each step, per allocation and colour, sort the live values' byte ranges, merge them and add up
 * the merged lengths (a value without an offset adds its size). Tests hold bufq to it.
 */
final class OccupancyOracle {
    private OccupancyOracle() {}

    /**
     * The colour a figure without one is of: 0, the device memory, where the module has other
     * memory spaces too; null (every value) where it has one.
     */
    static Integer device(HloModule m) {
        Set<Integer> cs = new TreeSet<>();
        for (HloValue v : m.values()) cs.add(v.color());
        for (var a : m.allocations()) cs.add(a.color());
        return cs.size() > 1 && cs.contains(0) ? 0 : null;
    }

    /** Occupied bytes at each step 0..steps-1 of the values of {@code color} (null: the device memory, {@link #device}). */
    static long[] occupied(HloModule m, Integer color) {
        if (color == null) color = device(m);
        int n = m.steps();
        long[] out = new long[n];
        // Values grouped by (allocation, colour), so each step looks only at candidates.
        Map<Long, List<HloValue>> groups = new TreeMap<>();
        for (HloValue v : m.values()) {
            if (!v.hasRange() || (color != null && v.color() != color)) continue;
            groups.computeIfAbsent(((long) v.allocation() << 32) | (v.color() & 0xffffffffL), k -> new ArrayList<>()).add(v);
        }
        for (List<HloValue> g : groups.values()) {
            for (int t = 0; t < n; t++) {
                List<long[]> ranges = new ArrayList<>();
                for (HloValue v : g) {
                    if (v.rangeStart() > t || v.rangeEnd() < t || v.size() <= 0) continue;
                    if (v.offset() < 0) out[t] += v.size();
                    else ranges.add(new long[] {v.offset(), v.offset() + v.size()});
                }
                ranges.sort((a, b) -> Long.compare(a[0], b[0]));
                long end = Long.MIN_VALUE;
                for (long[] r : ranges) {
                    if (r[0] >= end) {
                        out[t] += r[1] - r[0];
                        end = r[1];
                    } else if (r[1] > end) {
                        out[t] += r[1] - end;
                        end = r[1];
                    }
                }
            }
        }
        return out;
    }

    /** Logical bytes live at each step, summed value by value. */
    static long[] live(HloModule m, Integer color) {
        if (color == null) color = device(m);
        long[] out = new long[m.steps()];
        for (HloValue v : m.values()) {
            if (!v.hasRange() || (color != null && v.color() != color)) continue;
            for (int t = Math.max(0, v.rangeStart()); t <= Math.min(v.rangeEnd(), out.length - 1); t++) out[t] += v.logicalSize();
        }
        return out;
    }

    /** First index of the largest element, -1 when empty. */
    static int firstMax(long[] a) {
        int best = -1;
        for (int i = 0; i < a.length; i++) if (best < 0 || a[i] > a[best]) best = i;
        return best;
    }
}
