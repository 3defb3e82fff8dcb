package bufq.api;

import bufq.analysis.liveness.Prominence;
import bufq.analysis.map.AllocationMap;
import bufq.analysis.peak.Peak;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.waste.Waste;
import bufq.format.chart.BarChart;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;

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
