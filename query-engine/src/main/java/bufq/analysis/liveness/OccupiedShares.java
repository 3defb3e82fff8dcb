package bufq.analysis.liveness;

import bufq.model.HloValue;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Each live value's share of the occupied bytes at one step: in its allocation, the bytes of
 * {@code [offset, offset + size)} that no value before it holds, values taken by offset, then the
 * one born first (a hand-over's dying operand keeps the bytes its output takes over), then id. The
 * shares of one step add up to its occupied bytes: per allocation, the union of its live values'
 * byte ranges. {@code blame} and {@code export pprof} attribute bytes this way, so a byte two values
 * share at a hand-over, or a buffer a while loop aliases, counts once.
 */
public final class OccupiedShares {
    private OccupiedShares() {}

    /** Shares of {@code live} (values live at one step), in its order. */
    public static long[] of(List<HloValue> live) {
        Integer[] order = new Integer[live.size()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, Comparator.<Integer>comparingInt(i -> live.get(i).allocation())
                .thenComparingLong(i -> live.get(i).offset())
                .thenComparingInt(i -> live.get(i).rangeStart())
                .thenComparingLong(i -> live.get(i).id()));
        long[] shares = new long[order.length];
        int allocation = 0;
        long covered = Long.MIN_VALUE;
        for (int k = 0; k < order.length; k++) {
            HloValue v = live.get(order[k]);
            if (k == 0 || v.allocation() != allocation) {
                allocation = v.allocation();
                covered = Long.MIN_VALUE;
            }
            long end = v.offset() + v.size();
            shares[order[k]] = Math.max(0, end - Math.max(v.offset(), covered));
            covered = Math.max(covered, end);
        }
        return shares;
    }
}
