package bufq.api;

import bufq.analysis.liveness.Liveness;
import bufq.analysis.liveness.Prominence;
import bufq.analysis.liveness.Steps;
import bufq.analysis.map.AllocationMap;
import bufq.analysis.peak.Peak;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.waste.Waste;
import bufq.format.chart.BarChart;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The engine's answers about one module's memory over its run: the peak and the steps nearly as
 * high, the timeline, one allocation's map, padding and fragmentation. Each returns what a client
 * prints; the shell's commands and the scripts ask the same entry points.
 */
public final class Reports {
    /** The widest chart a client may ask for, in columns. */
    public static final int MAX_CHART_WIDTH = BarChart.MAX_WIDTH;
    /** {@code peaks}' default: steps whose prominence is at least this share of the highest. */
    public static final double PEAKS_MIN_SHARE = Prominence.DEFAULT_SHARE;

    private Reports() {}

    /**
     * The peak of {@code m}: the first step with the most occupied bytes.
     *
     * @param liveBytes   the values' bytes live then (a byte two values share counted twice)
     * @param claimedTime the step the dump labels its peak, -1 when it labels none
     */
    public record PeakStep(int time, long bytes, long liveBytes, int claimedTime) {}

    /** The peak of {@code m}, null when no value is live at any step. */
    public static PeakStep peakStep(HloModule m) {
        Liveness l = Liveness.of(m);
        int t = l.peakTime();
        return t < 0 ? null : new PeakStep(t, l.peakBytes(), l.liveBytes(t), l.claimedPeakTime());
    }

    /** The bytes occupied at the peak of {@code m}, 0 without one. */
    public static long peakBytes(HloModule m) { return Liveness.of(m).peakBytes(); }

    /** A row of {@link #peaks} with its default share: the step and the bytes occupied there. */
    public record Ranked(int step, long bytes) {}

    /** The steps {@code peaks} lists by default (every memory space), highest first: what {@code peak(N)} names. */
    public static List<Ranked> rankedPeaks(HloModule m) {
        List<Ranked> out = new ArrayList<>();
        for (Prominence.Ranked p : Prominence.ranked(Liveness.of(m).occupiedBytesByStep(OptionalInt.empty()), PEAKS_MIN_SHARE))
            out.add(new Ranked(p.step(), p.bytes()));
        return out;
    }

    /**
     * Refuses a colour {@code m} does not use.
     *
     * @throws IllegalArgumentException naming the colours it uses
     */
    public static void checkColor(HloModule m, OptionalInt color) { Steps.requireColor(m, color); }

    /** {@code peak}: the peak per colour (or of {@code color}) and what is live there, values under {@code smallBytes} folded. */
    public static List<Output> peak(HloModule m, OptionalInt color, long smallBytes, TilingModel tiling) {
        return Peak.report(m, color, smallBytes, tiling);
    }

    /** {@code peaks}: the local maxima whose prominence is at least {@code minShare} of the highest, highest first. */
    public static Table peaks(HloModule m, OptionalInt color, double minShare) {
        return Peak.peaks(m, color, minShare);
    }

    /** {@code timeline}: occupied bytes by step as a bar chart {@code width} columns wide. */
    public static List<Output> timeline(HloModule m, OptionalInt color, int width) { return Timeline.chart(m, color, width); }

    /** {@code timeline by events}: when each allocation's values start and end. */
    public static List<Output> timelineEvents(HloModule m, int width) { return Timeline.events(m, width); }

    /** The timeline as an SVG picture. */
    public static String timelineSvg(HloModule m, OptionalInt color) { return Timeline.svg(m, color); }

    /** The timeline as an HTML page. */
    public static String timelineHtml(HloModule m, OptionalInt color) { return Timeline.html(m, color); }

    /**
     * {@code map N}: allocation {@code allocation}'s offsets over time.
     *
     * @throws IllegalArgumentException when the module has no such allocation; the message says so
     */
    public static List<Output> map(HloModule m, int allocation, int width) { return AllocationMap.chart(m, allocation, width); }

    /** The allocation map as an SVG picture. */
    public static String mapSvg(HloModule m, int allocation) { return AllocationMap.svg(m, allocation); }

    /** The allocation map as an HTML page. */
    public static String mapHtml(HloModule m, int allocation) { return AllocationMap.html(m, allocation); }

    /** {@code padding}: the bytes tiling adds under {@code tiling}, largest first. */
    public static List<Output> padding(HloModule m, TilingModel tiling) { return Waste.padding(m, tiling); }

    /** {@code fragmentation}: the bytes allocations reserve beyond what is live in them. */
    public static List<Output> fragmentation(HloModule m) { return Waste.fragmentation(m); }
}
