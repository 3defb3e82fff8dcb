package bufq.analysis.category;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.OccupiedShares;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;

/**
 * The values of a module live at one step: their positions in {@link HloModule#values()} (where a
 * classification is read), the values, and each one's share of the occupied bytes, each byte once
 * ({@link OccupiedShares}), all three in the same order. What every report of this package starts from.
 */
record Occupied(int[] positions, List<HloValue> live, long[] shares) {
    static Occupied at(HloModule m, int t) {
        int[] positions = LiveValues.positions(m, t, t);
        List<HloValue> live = new ArrayList<>(positions.length);
        for (int p : positions) live.add(m.values().get(p));
        return new Occupied(positions, live, OccupiedShares.of(live));
    }

    int size() { return positions.length; }
}
