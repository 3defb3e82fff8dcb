package bufq.analysis.timeline;

import bufq.format.chart.BarChart;
import bufq.analysis.liveness.Steps;
import bufq.model.HloModule;
import bufq.table.Output;
import bufq.table.Table;

import java.util.List;
import java.util.OptionalInt;

/**
 * {@code timeline}: occupied bytes per step, as a terminal chart, its numbers as a table, an SVG or
 * an XHTML page, and a proto dump's heap-simulator trace beside bufq's sweep. Pure functions of a
 * loaded module; a colour the module does not use is refused ({@link Steps#requireColor}).
 */
public final class Timeline {
    private Timeline() {}

    /**
     * Terminal chart of occupied bytes per step with the peak marked, {@code width} columns wide (y
     * axis included), carrying {@link #table} as its data for csv and json.
     */
    public static List<Output> chart(HloModule m, OptionalInt color, int width) {
        Steps.requireColor(m, color);
        return TimelineChart.run(m, color, Math.min(width, BarChart.MAX_WIDTH));
    }

    /**
     * The heap-simulator trace's bytes after each event (a proto dump's), charted {@code width}
     * columns wide, then its peak beside bufq's per-step peak with what makes them differ.
     */
    public static List<Output> events(HloModule m, int width) { return EventTimeline.run(m, width); }

    /**
     * The numbers behind the chart, one row per step: {@code step, instruction, occupied_bytes,
     * live_bytes}, then {@code color_N} occupied bytes per colour when there are several. For
     * machine formats (csv, json) where a chart is no use; a note names the peak step.
     */
    public static Table table(HloModule m, OptionalInt color) {
        Steps.requireColor(m, color);
        return TimelineChart.table(m, color);
    }

    /** Standalone SVG document of live bytes per step, stacked by colour, peak marked. */
    public static String svg(HloModule m, OptionalInt color) {
        Steps.requireColor(m, color);
        return TimelinePicture.svg(m, color);
    }

    /** Standalone XHTML page with the timeline SVG and a hover read-out (inline script, no network). */
    public static String html(HloModule m, OptionalInt color) {
        Steps.requireColor(m, color);
        return TimelinePicture.html(m, color);
    }
}
