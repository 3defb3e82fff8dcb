package bufq.analysis;

import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.Module;

import java.util.OptionalInt;
import java.util.function.ToLongFunction;

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

    private LiveProfile(int steps, long[] logical, long[] assigned) {
        this.steps = steps;
        this.logical = logical;
        this.assigned = assigned;
    }

    /** The profile of the values of colour {@code color}, or of all values when empty. */
    public static LiveProfile of(Module m, OptionalInt color) {
        int n = m.steps();
        return new LiveProfile(n, sweep(m, color, n, HloValue::logicalSize), sweep(m, color, n, HloValue::size));
    }

    private static long[] sweep(Module m, OptionalInt color, int n, ToLongFunction<HloValue> size) {
        long[] diff = new long[n + 1];
        for (HloValue v : m.values()) {
            if (color.isPresent() && v.color() != color.getAsInt()) continue;
            LiveRange r = v.range();
            if (r == null || n == 0) continue;
            int s = clamp(r.start(), n), e = clamp(r.end(), n);
            if (e < s) continue;
            long b = size.applyAsLong(v);
            diff[s] = Math.addExact(diff[s], b);
            diff[e + 1] = Math.subtractExact(diff[e + 1], b);
        }
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
    public int peakTime() { return firstMax(logical); }
    public long peakBytes() { return steps == 0 ? 0 : logical[peakTime()]; }
    /** First step with the most assigned bytes, or -1. */
    public int assignedPeakTime() { return firstMax(assigned); }
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
    public static int xlaPeakMoment(Module m) {
        int n = m.steps();
        if (n == 0) return -1;
        long[] diff = new long[n + 2];
        for (HloValue v : m.values()) {
            LiveRange r = v.range();
            if (r == null) continue;
            int s = Math.max(0, Math.min(r.start(), n)), e = Math.max(0, Math.min(r.end() + 1, n));
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
    static long instructionBytes(Module m, HloValue v) {
        HloInstruction ins = m.instruction(v.name());
        if (ins != null && ins.shape() != null) return ins.shape().logicalBytes();
        return v.logicalSize();
    }
}
