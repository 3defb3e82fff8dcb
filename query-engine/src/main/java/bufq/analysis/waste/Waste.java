package bufq.analysis.waste;

import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;

import java.util.List;

/**
 * Bytes a module holds beyond what its values need: {@code padding} (the tiling's padding of each
 * value's shape) and {@code fragmentation} (what an allocation reserves beyond the most its live
 * values cover at once). Pure functions of a loaded module.
 */
public final class Waste {
    private Waste() {}

    /** Tiling padding: totals per colour, worst values, and by shape; {@code tiling} adds a rule column. */
    public static List<Output> padding(HloModule m, TilingModel tiling) { return PaddingReport.run(m, tiling); }

    /** Per allocation: size, the most bytes its live values cover at once, fragmentation; totals per colour. */
    public static List<Output> fragmentation(HloModule m) { return FragmentationReport.run(m); }
}
