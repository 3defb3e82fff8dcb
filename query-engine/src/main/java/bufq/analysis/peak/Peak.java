package bufq.analysis.peak;

import bufq.analysis.liveness.Liveness;
import bufq.analysis.liveness.Steps;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;

import java.util.List;
import java.util.OptionalInt;

/**
 * {@code peak} and {@code peaks}: the first step with the most occupied bytes (each byte of an
 * allocation once, see {@link Liveness}) beside the step the dump labels its peak, what is live
 * there, and the local maxima around it. Pure functions of a loaded module; a colour the module
 * does not use is refused ({@link Steps#requireColor}).
 */
public final class Peak {
    /** Default fold threshold for {@link #report}: values under 16 KiB become one "small" row. */
    public static final long DEFAULT_SMALL_THRESHOLD = 16 * 1024;

    private Peak() {}

    /**
     * The peak per colour and overall, with the live bytes then, beside the dump's own label; then
     * the values live at the (colour's) peak step sorted by logical size. Without live ranges, one
     * line saying there is no peak.
     *
     * @param color          one colour (memory space), or all
     * @param smallThreshold values with fewer logical bytes fold into one row
     * @param tiling         extra what-if column when a non-builtin rule is set; may be null
     */
    public static List<Output> report(HloModule m, OptionalInt color, long smallThreshold, TilingModel tiling) {
        Steps.requireColor(m, color);
        return PeakReport.run(m, color, smallThreshold, tiling);
    }

    /** What a report says of a module without live ranges, which has no peak, and how to get them. */
    public static String noRanges(HloModule m) { return PeakReport.noRanges(m); }

    /**
     * {@code peaks}: the local maxima of occupied bytes whose prominence (as SciPy defines it) is at
     * least {@code share} of the highest, highest first; the highest step is always listed.
     */
    public static Table peaks(HloModule m, OptionalInt color, double share) {
        Steps.requireColor(m, color);
        if (!(share >= 0 && share <= 1)) throw new IllegalArgumentException("min_share must be from 0 to 1 (0% to 100%), not " + share);
        return PeaksReport.run(m, color, share);
    }
}
