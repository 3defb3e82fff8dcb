package bufq.analysis.liveness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Local maxima of a series and their topographic prominence, exactly as SciPy defines them
 * ({@code scipy.signal.find_peaks} with {@code prominence=}, which calls {@code _local_maxima_1d}
 * and {@code peak_prominences} with no window), so bufq's peaks match what a Python analysis of
 * the same series finds.
 *
 * <p>A local maximum is a sample, or a flat run of equal samples (a plateau), higher than its
 * neighbours on both sides; the first and last samples never are. SciPy reports a plateau at its
 * middle sample (rounded down); {@link Peak} keeps its edges as well. A peak's prominence is its
 * height above the higher of its two bases, each base the lowest sample between the peak and the
 * nearest higher sample on that side (or the series' end).
 */
public final class Prominence {
    private Prominence() {}

    /**
     * One local maximum.
     *
     * @param middle     where SciPy reports it: the middle of its plateau, rounded down
     * @param left       first sample of its plateau
     * @param right      last sample of its plateau
     * @param prominence height above the higher of its bases
     * @param leftBase   SciPy's left base (lowest sample left of it before a higher one)
     * @param rightBase  SciPy's right base
     */
    public record Peak(int middle, int left, int right, long prominence, int leftBase, int rightBase) {}

    /** Every local maximum of {@code x} in order, with its prominence ({@code _local_maxima_1d}, {@code _peak_prominences}). */
    public static List<Peak> peaks(long[] x) {
        List<Peak> out = new ArrayList<>();
        int i = 1, last = x.length - 1;
        while (i < last) {
            if (x[i - 1] < x[i]) {
                int ahead = i + 1;
                while (ahead < last && x[ahead] == x[i]) ahead++;
                if (x[ahead] < x[i]) {
                    int left = i, right = ahead - 1, middle = (left + right) / 2;
                    out.add(prominence(x, middle, left, right));
                    i = ahead;
                }
            }
            i++;
        }
        return out;
    }

    /** SciPy's {@code _peak_prominences} for one peak with the whole series as its window. */
    private static Peak prominence(long[] x, int peak, int left, int right) {
        long top = x[peak];
        long leftMin = top, rightMin = top;
        int leftBase = peak, rightBase = peak;
        for (int i = peak; i >= 0 && x[i] <= top; i--) {
            if (x[i] < leftMin) { leftMin = x[i]; leftBase = i; }
        }
        for (int i = peak; i < x.length && x[i] <= top; i++) {
            if (x[i] < rightMin) { rightMin = x[i]; rightBase = i; }
        }
        return new Peak(peak, left, right, top - Math.max(leftMin, rightMin), leftBase, rightBase);
    }

    /**
     * The local maxima whose prominence is at least {@code share} of the series' maximum, as
     * {@code find_peaks(x, prominence=share * x.max())} keeps them.
     */
    public static List<Peak> prominent(long[] x, double share) {
        long max = Long.MIN_VALUE;
        for (long v : x) max = Math.max(max, v);
        List<Peak> out = new ArrayList<>();
        for (Peak p : peaks(x)) if (p.prominence() >= share * max) out.add(p);
        return out;
    }

    /** Default of {@code peaks min_share} and of {@code peak(N)}: SciPy's {@code prominence = max / 5}. */
    public static final double DEFAULT_SHARE = 0.2;

    /**
     * A peak as bufq lists it: the first step of its plateau (where {@code peak} would put it), the
     * plateau's last step, its bytes and prominence, and whether SciPy's {@code find_peaks} reports it.
     */
    public record Ranked(int step, int to, long bytes, long prominence, boolean scipy) {}

    /**
     * The prominent peaks of {@code x}, highest first (then earliest): the local maxima whose
     * prominence is at least {@code share} of the maximum, and always the highest step itself, even
     * at an end of the series, where SciPy never finds a peak (its prominence then counts the one
     * side it has). Empty for an empty series.
     */
    public static List<Ranked> ranked(long[] x, double share) {
        List<Ranked> out = new ArrayList<>();
        if (x.length == 0) return out;
        int top = 0;
        for (int t = 1; t < x.length; t++) if (x[t] > x[top]) top = t;
        boolean topListed = false;
        for (Peak p : prominent(x, share)) {
            out.add(new Ranked(p.left(), p.right(), x[p.middle()], p.prominence(), true));
            topListed |= p.left() == top;
        }
        if (!topListed) {
            int to = top;
            while (to + 1 < x.length && x[to + 1] == x[top]) to++;
            long leftMin = x[top], rightMin = x[top];
            for (int i = top; i >= 0 && x[i] <= x[top]; i--) leftMin = Math.min(leftMin, x[i]);
            for (int i = top; i < x.length && x[i] <= x[top]; i++) rightMin = Math.min(rightMin, x[i]);
            // A side that runs off the series has no base: only the other side counts.
            boolean leftEdge = top == 0, rightEdge = to == x.length - 1;
            long base = leftEdge && rightEdge ? Math.min(leftMin, rightMin)
                    : leftEdge ? rightMin : rightEdge ? leftMin : Math.max(leftMin, rightMin);
            out.add(new Ranked(top, to, x[top], x[top] - base, false));
        }
        out.sort(Comparator.comparingLong(Ranked::bytes).reversed().thenComparingInt(Ranked::step));
        return out;
    }
}
