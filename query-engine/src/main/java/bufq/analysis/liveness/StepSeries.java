package bufq.analysis.liveness;

import bufq.model.MemorySpace;

import java.util.Arrays;

/** Per-step series of the sweep: running sums, totals over colours, the first maximum. */
final class StepSeries {
    private StepSeries() {}

    static long[] prefix(long[] diff, int n) {
        long[] out = new long[n];
        long acc = 0;
        for (int t = 0; t < n; t++) out[t] = acc = Math.addExact(acc, diff[t]);
        return out;
    }

    /** The slot of the device memory (colour 0) when there are other colours too, else -1. */
    static int deviceSlot(int[] colors) {
        return colors.length > 1 ? Arrays.binarySearch(colors, MemorySpace.DEVICE) : -1;
    }

    /** The device memory's series; the sum of all when there is one colour or no colour 0. */
    static long[] device(int[] colors, long[][] byColor, int steps) {
        if (colors.length == 1) return byColor[0];
        int d = deviceSlot(colors);
        return d >= 0 ? byColor[d] : sum(byColor, steps);
    }

    static long[] sum(long[][] rows, int n) {
        long[] out = new long[n];
        for (long[] r : rows) for (int t = 0; t < n; t++) out[t] = Math.addExact(out[t], r[t]);
        return out;
    }

    /** The first time (0..steps) whose running sum of {@code diff} is largest and positive; 0 when none is. */
    static int xlaMoment(long[] diff) {
        long acc = 0, best = 0;
        int at = 0;
        for (int t = 0; t < diff.length - 1; t++) {
            acc += diff[t];
            if (acc > best) {
                best = acc;
                at = t;
            }
        }
        return at;
    }

    static int firstMax(long[] a) {
        int best = -1;
        for (int t = 0; t < a.length; t++) if (best < 0 || a[t] > a[best]) best = t;
        return best;
    }
}
