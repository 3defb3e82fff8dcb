package bufq.analysis;

import bufq.liveness.OccupiedShares;
import bufq.liveness.Steps;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;

import java.util.List;
import java.util.OptionalInt;

/**
 * The memory-explaining commands {@code peak}, {@code peaks}, {@code padding}, {@code fragmentation},
 * {@code blame} as pure functions of a loaded module. Each
 * returns typed tables or text blocks (so every output format works), or a picture as a string that
 * the shell writes to a file ({@code timeline}, {@code map} and {@code check} have packages of their
 * own: {@code bufq.timeline}, {@code bufq.map}, {@code bufq.check}, {@code bufq.why}). All methods are static, side-effect free and thread-safe.
 *
 * <p>Quantities use XLA's words: logical bytes are {@code ShapeUtil::ByteSizeOf} of a value's shape,
 * assigned bytes the dump's {@code size=}; a value is live from the start to the end of its
 * BufferLiveRange, both inclusive.
 *
 * <p>Arguments a user can get wrong (a colour or allocation the module does not have) raise
 * {@link IllegalArgumentException} with a one-line message meant to be shown as is.
 */
public final class Analyses {
    /** Default fold threshold for {@link #peak}: values under 16 KiB become one "small" row. */
    public static final long DEFAULT_SMALL_THRESHOLD = 16 * 1024;

    private Analyses() {}

    /**
     * The peak (first step with the most occupied bytes, see {@link Liveness}) per colour and overall,
     * with the live bytes then, beside the dump's own label; then the values live at the (colour's)
     * peak step sorted by logical size. Without live ranges, one line saying there is no peak.
     *
     * @param color          one colour (memory space), or all
     * @param smallThreshold values with fewer logical bytes fold into one row
     * @param tiling         extra what-if column when a non-builtin rule is set; may be null
     */
    public static List<Output> peak(HloModule m, OptionalInt color, long smallThreshold, TilingModel tiling) {
        Steps.requireColor(m, color);
        return PeakReport.run(m, color, smallThreshold, tiling);
    }

    /** Tiling padding: totals per colour, worst values, and by shape; {@code tiling} adds a rule column. */
    public static List<Output> padding(HloModule m, TilingModel tiling) { return PaddingReport.run(m, tiling); }

    /** Per allocation: size, the most bytes its live values cover at once, fragmentation; totals per colour. */
    public static List<Output> fragmentation(HloModule m) { return FragmentationReport.run(m); }

    /**
     * Bytes occupied at the peak by op_name prefix, source line or opcode (each byte once: see
     * {@link OccupiedShares}), then the stack-trace tree at the peak. Without live ranges, one line
     * saying there is no peak.
     *
     * @param depth deepest op_name prefix level shown; 0 or less for all
     */
    public static List<Output> blame(HloModule m, BlameBy by, int depth) { return BlameReport.run(m, by, depth, 0); }

    /** As {@link #blame(HloModule, BlameBy, int)}, the stack tree cut at {@code maxLines} node lines (0 = all). */
    public static List<Output> blame(HloModule m, BlameBy by, int depth, int maxLines) {
        return BlameReport.run(m, by, depth, maxLines);
    }

    /**
     * As {@link #blame(HloModule, BlameBy, int, int)} at step {@code step} (from 0; the stack tree is
     * printed at the peak alone). {@code by category} and {@code by path} follow the built-in rules.
     */
    public static List<Output> blameAt(HloModule m, BlameBy by, int depth, int maxLines, int step) {
        if (step < 0 || step >= m.steps()) throw new IllegalArgumentException("no step " + step + " in " + m.handle());
        return BlameReport.run(m, by, depth, maxLines, step);
    }

    /**
     * {@code peaks}: the local maxima of occupied bytes whose prominence (as SciPy defines it) is at
     * least {@code share} of the highest, highest first; the highest step is always listed.
     */
    public static Table peaks(HloModule m, OptionalInt color, double share) {
        Steps.requireColor(m, color);
        if (!(share >= 0 && share <= 1)) throw new IllegalArgumentException("min_share must be from 0 to 1 (0% to 100%), not " + share);
        return PeaksReport.run(m, color, share);
    }

    /**
     * An op_name's levels as {@code blame by op_name} counts them: split at {@code /} outside
     * parentheses and brackets ({@code jit(f)/jvp(a/b)/div} has three).
     */
    public static List<String> opNamePath(String opName) { return BlameReport.splitOpName(opName); }
}
