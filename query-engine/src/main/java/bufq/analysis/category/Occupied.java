package bufq.analysis.category;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.OccupiedShares;
import bufq.analysis.liveness.Steps;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

/**
 * The values of a module live at one step: their positions in {@link HloModule#values()} (where a
 * classification is read), the values, and each one's share of the occupied bytes, each byte once
 * ({@link OccupiedShares}), all three in the same order. What every report of this package starts from.
 * Of the device memory only (colour 0) where the module has other memory spaces: a TPU's VMEM and
 * host offload are not device bytes.
 */
record Occupied(int[] positions, List<HloValue> live, long[] shares) {
    /** The device memory's values (colour 0) live at {@code t}; every value where the module has one memory. */
    static Occupied at(HloModule m, int t) {
        return at(m, t, Steps.spaceFilter(m, OptionalInt.empty()));
    }

    /** The values of colour {@code color} live at {@code t} (of every colour when negative). */
    static Occupied at(HloModule m, int t, int color) {
        int[] all = LiveValues.positions(m, t, t);
        int[] positions = new int[all.length];
        int n = 0;
        List<HloValue> live = new ArrayList<>(all.length);
        for (int p : all) {
            HloValue v = m.values().get(p);
            if (color >= 0 && v.color() != color) continue;
            positions[n++] = p;
            live.add(v);
        }
        return new Occupied(Arrays.copyOf(positions, n), live, OccupiedShares.of(live));
    }

    int size() { return positions.length; }
}
