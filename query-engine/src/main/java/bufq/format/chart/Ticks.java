package bufq.format.chart;

import java.util.ArrayList;
import java.util.List;

/**
 * Axis ticks for the SVG and HTML pictures, at round values: steps at multiples of 1, 2 or 5 times
 * a power of ten (every step while they fit, so none is skipped), bytes at multiples of a power of
 * two (512.0MiB, 1.0GiB, 1.5GiB rather than quarters of the maximum).
 */
public final class Ticks {
    private Ticks() {}

    /** Ticks over steps {@code 0..steps-1}, at most about {@code most}: 0, then every round interval. */
    public static List<Integer> steps(int steps, int most) {
        List<Integer> out = new ArrayList<>();
        if (steps <= 0) return out;
        long every = 1;
        search:
        for (long p = 1; ; p *= 10) {
            for (long f : new long[] {1, 2, 5}) {
                every = f * p;
                if ((steps - 1) / every + 1 <= most) break search;
            }
        }
        for (long t = 0; t < steps; t += every) out.add((int) t);
        return out;
    }

    /** Byte ticks from 0 up to {@code max}: multiples of the power of two that gives two to five of them above 0. */
    public static List<Long> bytes(long max) {
        List<Long> out = new ArrayList<>();
        out.add(0L);
        if (max <= 0) return out;
        long every = Long.highestOneBit(Math.max(1, max / 5));
        if (max / every > 5) every *= 2;
        for (long v = every; v <= max && v > 0; v += every) out.add(v);
        return out;
    }
}
