package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.units.Units;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;

/** A single buffer holding more than half of the peak: the first thing to look at in an OOM. */
final class BigBufferRule implements Rule {
    @Override public String name() { return "big-buffer"; }

    @Override public String description() {
        return "a single value live at the peak that holds more than half of it; saving if it were not materialised";
    }

    @Override public List<Advice> find(Facts f) {
        List<Advice> out = new ArrayList<>();
        for (HloValue v : f.atPeak()) {
            if (2 * v.size() <= f.peakBytes()) break;   // largest first
            out.add(new Advice(name(), String.format("%s (%s, %s) holds %.0f%% of the peak on its own%s", v.label(),
                    v.shape() == null ? "?" : v.shape().text(), Units.human(v.size()), 100.0 * v.size() / f.peakBytes(),
                    f.opName(v).isEmpty() ? "" : "; made by " + f.opName(v)),
                    Edit.Drop.of(Facts.byId(List.of(v))), List.of(v)));
        }
        return out;
    }
}
