package bufq.analysis;

import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.HloModule;

import java.util.OptionalInt;

/**
 * Live bytes at every program step for one colour (memory space) or all, in logical bytes
 * ({@code ShapeUtil::ByteSizeOf} of the value's shape) and in assigned bytes (the dump's
 * {@code size=}, which includes tiling padding).
 *
 * <p>A value counts from its range's start to its end, both inclusive; values without a live range
 * (unsequenced computations, dumps without live ranges) do not count.
 */
public final class LiveProfile {
    private final int steps;
    private final long[] logical;
    private final long[] assigned;

    private final int peakTime, assignedPeakTime;

    private LiveProfile(int steps, long[] logical, long[] assigned) {
        this.steps = steps;
        this.logical = logical;
        this.assigned = assigned;
        this.peakTime = firstMax(logical);
        this.assignedPeakTime = firstMax(assigned);
    }

    /**
     * The profile of the values of colour {@code color}, or of all values when empty. Computed once
     * per module and colour (a module is immutable; see {@link AnalysisMemo}).
     */
    public static LiveProfile of(HloModule m, OptionalInt color) {
        return AnalysisMemo.profile(m, color, () -> compute(m, color));
    }

    /** The profile computed afresh: one sweep over the values for both sizes. */
    static LiveProfile compute(HloModule m, OptionalInt color) {
        int n = m.steps();
        long[] dl = new long[n + 1], da = new long[n + 1];
        boolean one = color.isPresent();
        int c = one ? color.getAsInt() : 0;
        // Failures come in the order of the two separate sweeps this replaces: any on logical
        // sizes first, an overflow of assigned bytes only after.
        boolean assignedOverflow = false;
        if (n > 0) {
            for (HloValue v : m.values()) {
                if (one && v.color() != c) continue;
                if (!v.hasRange()) continue;
                int s = clamp(v.rangeStart(), n), e = clamp(v.rangeEnd(), n);
                if (e < s) continue;
                long b = v.logicalSize();
                dl[s] = Math.addExact(dl[s], b);
                dl[e + 1] = Math.subtractExact(dl[e + 1], b);
                if (assignedOverflow) continue;
                long a = v.size();
                try {
                    da[s] = Math.addExact(da[s], a);
                    da[e + 1] = Math.subtractExact(da[e + 1], a);
                } catch (ArithmeticException x) {
                    assignedOverflow = true;
                }
            }
        }
        long[] logical = prefix(dl, n);
        if (assignedOverflow) throw new ArithmeticException("long overflow");
        return new LiveProfile(n, logical, prefix(da, n));
    }

    private static long[] prefix(long[] diff, int n) {
        long[] out = new long[n];
        long acc = 0;
        for (int t = 0; t < n; t++) out[t] = acc = Math.addExact(acc, diff[t]);
        return out;
    }

    private static int clamp(int t, int n) { return Math.max(0, Math.min(t, n - 1)); }

    public int steps() { return steps; }
    public long[] logical() { return logical.clone(); }
    public long[] assigned() { return assigned.clone(); }
    public long logicalAt(int t) { return logical[t]; }
    public long assignedAt(int t) { return assigned[t]; }

    /** First step with the most logical bytes, or -1 when there are no steps. */
    public int peakTime() { return peakTime; }
    public long peakBytes() { return steps == 0 ? 0 : logical[peakTime()]; }
    /** First step with the most assigned bytes, or -1. */
    public int assignedPeakTime() { return assignedPeakTime; }
    public long assignedPeakBytes() { return steps == 0 ? 0 : assigned[assignedPeakTime()]; }

    static int firstMax(long[] a) {
        int best = -1;
        for (int t = 0; t < a.length; t++) if (best < 0 || a[t] > a[best]) best = t;
        return best;
    }

    /**
     * The peak moment as XLA's {@code HloLiveRange::ComputePeakMemoryMoment} picks it, quirks
     * included: it adds a value at {@code start} and removes it at {@code end + 1}, sorting the
     * additions at a time before the removals, so a value still counts one step after its end; and it
     * sizes every value by its defining instruction's whole shape (a tuple element weighs as the
     * tuple's index table). Returns the first time the running total reaches its maximum, 0 when
     * nothing has a live range (as XLA does), or -1 when the module has no schedule.
     */
    public static int xlaPeakMoment(HloModule m) {
        return AnalysisMemo.xlaPeakMoment(m, () -> computeXlaPeakMoment(m));
    }

    static int computeXlaPeakMoment(HloModule m) {
        int n = m.steps();
        if (n == 0) return -1;
        long[] diff = new long[n + 2];
        for (HloValue v : m.values()) {
            if (!v.hasRange()) continue;
            int s = Math.max(0, Math.min(v.rangeStart(), n)), e = Math.max(0, Math.min(v.rangeEnd() + 1, n));
            if (e < s) continue;
            long b = instructionBytes(m, v);
            diff[s] += b;
            diff[e + 1] -= b;
        }
        long acc = 0, best = 0;
        int at = 0;
        for (int t = 0; t <= n; t++) {
            acc += diff[t];
            if (acc > best) {
                best = acc;
                at = t;
            }
        }
        return at;
    }

    /** Logical bytes of the instruction that defines {@code v} (its whole output shape), else of the value. */
    static long instructionBytes(HloModule m, HloValue v) {
        HloInstruction ins = m.instruction(v.name());
        if (ins != null && ins.shape() != null) return ins.shape().logicalBytes();
        return v.logicalSize();
    }
}
