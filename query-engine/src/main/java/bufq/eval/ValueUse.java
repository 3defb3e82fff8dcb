package bufq.eval;

import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.liveness.UseSchedule;
import java.util.ArrayList;
import java.util.List;

/** A row of the {@code uses} entity: one read of a value, with the step its reader runs at. */
public record ValueUse(HloValue value, UseSchedule.TimedUse use) {

    /** Every use of every value of {@code m}: values in dump order, each value's uses in schedule order. */
    static List<ValueUse> all(HloModule m) {
        List<ValueUse> out = new ArrayList<>();
        for (HloValue v : m.values()) {
            if (v.uses().isEmpty()) continue;
            for (UseSchedule.TimedUse u : UseSchedule.timed(m, v)) out.add(new ValueUse(v, u));
        }
        return out;
    }
}
