package bufq.analysis;

import bufq.liveness.OccupiedShares;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.liveness.Liveness;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;

/**
 * The memory-explaining commands ({@code peak}, {@code timeline}, {@code map}, {@code padding},
 * {@code fragmentation}, {@code blame}, {@code check}) as pure functions of a loaded module. Each
 * returns typed tables or text blocks (so every output format works), or a picture as a string that
 * the shell writes to a file. All methods are static, side-effect free and thread-safe.
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
        requireColor(m, color);
        return PeakReport.run(m, color, smallThreshold, tiling);
    }

    /** Widest chart drawn, in columns: a wider request is drawn this wide (a chart is text held in memory). */
    public static final int MAX_WIDTH = 10_000;

    /**
     * Terminal chart of occupied bytes per step with the peak marked, {@code width} columns wide (y
     * axis included), carrying {@link #timelineTable} as its data for csv and json.
     */
    public static List<Output> timeline(HloModule m, OptionalInt color, int width) {
        requireColor(m, color);
        return TimelineChart.run(m, color, Math.min(width, MAX_WIDTH));
    }

    /**
     * The heap-simulator trace's bytes after each event (a proto dump's), charted {@code width}
     * columns wide, then its peak beside bufq's per-step peak with what makes them differ.
     */
    public static List<Output> eventTimeline(HloModule m, int width) { return EventTimeline.run(m, width); }

    /**
     * The numbers behind the timeline, one row per step: {@code step, instruction, occupied_bytes,
     * live_bytes}, then {@code color_N} occupied bytes per colour when there are several. For
     * machine formats (csv, json) where a chart is no use; a note names the peak step.
     */
    public static Table timelineTable(HloModule m, OptionalInt color) {
        requireColor(m, color);
        return TimelineChart.table(m, color);
    }

    /** Standalone SVG document of live bytes per step, stacked by colour, peak marked. */
    public static String timelineSvg(HloModule m, OptionalInt color) {
        requireColor(m, color);
        return TimelinePicture.svg(m, color);
    }

    /** Standalone XHTML page with the timeline SVG and a hover read-out (inline script, no network). */
    public static String timelineHtml(HloModule m, OptionalInt color) {
        requireColor(m, color);
        return TimelinePicture.html(m, color);
    }

    /**
     * Offset-by-step map of one allocation as terminal art plus a legend table.
     *
     * @throws IllegalArgumentException when the module has no such allocation (message names the range)
     */
    public static List<Output> allocationMap(HloModule m, int allocation, int width) {
        return AllocationMap.run(m, allocation, Math.min(width, MAX_WIDTH));
    }

    /** The allocation map as a standalone SVG document. @throws IllegalArgumentException no such allocation */
    public static String allocationMapSvg(HloModule m, int allocation) { return AllocationMapPicture.svg(m, allocation); }

    /** The allocation map as a standalone XHTML page. @throws IllegalArgumentException no such allocation */
    public static String allocationMapHtml(HloModule m, int allocation) { return AllocationMapPicture.html(m, allocation); }

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
        requireColor(m, color);
        if (!(share >= 0 && share <= 1)) throw new IllegalArgumentException("min_share must be from 0 to 1 (0% to 100%), not " + share);
        return PeaksReport.run(m, color, share);
    }

    /**
     * {@code why}: for each value, what it is, where it is born, its uses, why it ends there, its idle
     * stretches and its weight at the peak.
     *
     * @throws CancellationException when the thread is interrupted (Ctrl-C) before the last value;
     *         the interrupt flag stays set
     */
    public static List<WhyReport> why(HloModule m, List<HloValue> values) {
        List<WhyReport> out = new ArrayList<>(values.size());
        WhyReport.PeakHoldings holdings = new WhyReport.PeakHoldings(m);
        for (HloValue v : values) {
            if (Thread.currentThread().isInterrupted()) throw new CancellationException("why cancelled");
            out.add(WhyReport.of(m, v, holdings));
        }
        return out;
    }

    /**
     * The instruction's source as {@code blame by source} names it: {@code file:line}, the file alone
     * without a line, or null when the dump gives none.
     */
    public static String source(HloInstruction ins) { return PeakReport.source(ins); }

    /**
     * An op_name's levels as {@code blame by op_name} counts them: split at {@code /} outside
     * parentheses and brackets ({@code jit(f)/jvp(a/b)/div} has three).
     */
    public static List<String> opNamePath(String opName) { return BlameReport.splitOpName(opName); }

    /**
     * Rejects a colour the module does not use, so a typo is an error rather than an empty chart.
     *
     * @throws IllegalArgumentException naming the colours the module has
     */
    public static void requireColor(HloModule m, OptionalInt color) {
        if (color.isPresent() && !Liveness.of(m).colors().contains(color.getAsInt())) {
            throw new IllegalArgumentException("no color " + color.getAsInt() + " in " + m.handle() + " (colors: "
                    + String.join(", ", Liveness.of(m).colors().stream().map(String::valueOf).toList()) + ")");
        }
    }

    /** Runs the built-in checks and then {@code extra} (e.g. script rules). */
    public static CheckReport check(HloModule m, TilingModel tiling, List<? extends CheckRule> extra) {
        List<CheckRule> rules = new ArrayList<>(Checks.builtins(tiling));
        if (extra != null) rules.addAll(extra);
        return Checks.run(m, rules);
    }
}
