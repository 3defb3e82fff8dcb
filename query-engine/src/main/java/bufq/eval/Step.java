package bufq.eval;

import bufq.model.HloValue;
import bufq.model.HloModule;
import java.util.ArrayList;
import java.util.List;

/**
 * One program point of the schedule: the instruction at {@code time}, and the logical bytes and
 * number of values live there (XLA's definition: both ends of a range inclusive).
 */
public record Step(int time, String instruction, long liveBytes, int liveValues) {

    /**
     * Every step 0..maxTime of {@code m}; empty without a schedule. Unmodifiable. Computed once per
     * module (a module is immutable), so {@code steps ...} queries after the first do not sweep a
     * million values again.
     */
    public static List<Step> of(HloModule m) {
        return ModuleMemo.of(m).steps(m);
    }

    /** The steps computed afresh, without the per-module memo (what {@link #of} must equal). */
    static List<Step> compute(HloModule m) {
        int n = m.steps();
        long[] bytes = m.liveBytesByStep();
        int[] live = liveValues(m);
        List<Step> out = new ArrayList<>(n);
        List<String> seq = m.sequence();
        for (int t = 0; t < n; t++) {
            out.add(new Step(t, t < seq.size() ? seq.get(t) : null, t < bytes.length ? bytes[t] : 0, live[t]));
        }
        return out;
    }

    /** Number of values live at each step 0..steps-1, ranges clamped into the schedule. */
    static int[] liveValues(HloModule m) {
        int n = m.steps();
        int[] diff = new int[n + 1];
        for (HloValue v : m.values()) {
            if (!v.hasRange() || n == 0) continue;
            int s = Math.max(0, Math.min(v.rangeStart(), n - 1));
            int e = Math.max(0, Math.min(v.rangeEnd(), n - 1));
            if (e < s) continue;
            diff[s]++;
            diff[e + 1]--;
        }
        int[] out = new int[n];
        int live = 0;
        for (int t = 0; t < n; t++) out[t] = live += diff[t];
        return out;
    }
}
