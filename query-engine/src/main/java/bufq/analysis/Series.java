package bufq.analysis;

import bufq.liveness.Liveness;
import bufq.model.HloModule;

import java.util.OptionalInt;

/** The per-step byte series the peak analyses read. */
final class Series {
    private Series() {}

    /** Occupied bytes at every step for one colour or all. */
    static long[] occupied(HloModule m, OptionalInt color) {
        return Liveness.of(m).occupiedBytesByStep(color);
    }
}
