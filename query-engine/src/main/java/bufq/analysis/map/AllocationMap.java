package bufq.analysis.map;

import bufq.format.chart.BarChart;
import bufq.model.HloModule;
import bufq.table.Output;

import java.util.List;

/**
 * {@code map}: where in one allocation each value lies, step by step, as terminal art with a legend
 * table, an SVG or an XHTML page. Pure functions of a loaded module.
 */
public final class AllocationMap {
    private AllocationMap() {}

    /**
     * Offset-by-step map of one allocation as terminal art plus a legend table, {@code width}
     * columns wide at most {@link BarChart#MAX_WIDTH}.
     *
     * @throws IllegalArgumentException when the module has no such allocation (message names the range)
     */
    public static List<Output> chart(HloModule m, int allocation, int width) {
        return MapChart.run(m, allocation, Math.min(width, BarChart.MAX_WIDTH));
    }

    /** The allocation map as a standalone SVG document. @throws IllegalArgumentException no such allocation */
    public static String svg(HloModule m, int allocation) { return AllocationMapPicture.svg(m, allocation); }

    /** The allocation map as a standalone XHTML page. @throws IllegalArgumentException no such allocation */
    public static String html(HloModule m, int allocation) { return AllocationMapPicture.html(m, allocation); }
}
