package bufq.analysis.whatif;

import bufq.lang.QueryException;
import bufq.model.HloModule;

import java.util.List;

/** {@link Recompute} for tests in other packages. */
public final class RecomputeAccess {
    private RecomputeAccess() {}

    /** Occupied bytes per step after {@code edits}, recomputed plainly. */
    public static long[] occupancy(HloModule m, List<Edit> edits) throws QueryException {
        return Recompute.occupancy(m, Recompute.apply(m, edits));
    }

    /** The same with {@code tiling NAME} looked up in {@code tilings} (a script's models). */
    public static long[] occupancy(HloModule m, List<Edit> edits, java.util.function.Function<String, bufq.model.TilingModel> tilings)
            throws QueryException {
        return Recompute.occupancy(m, Recompute.apply(m, edits, tilings));
    }
}
