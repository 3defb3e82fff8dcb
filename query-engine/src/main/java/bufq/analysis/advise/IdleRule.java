package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.units.Units;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Large values idle at the peak (live, not read there, read again later) that are not activations
 * (those have their own rule): freeing each after its last use before the peak and making it again
 * for its next use is what {@code remat} measures. Entry parameters and constants are left out:
 * a program cannot make its inputs again (a parameter's bytes are freed by donation instead).
 */
final class IdleRule implements Rule {
    static final double SHARE = 0.02;
    static final int LISTED = 5;

    @Override public String name() { return "idle"; }

    @Override public String description() {
        return "values of at least 2% of the peak idle across it (not activations); saving if each were freed and made again";
    }

    @Override public List<Advice> find(Facts f) {
        List<Advice> out = new ArrayList<>();
        for (HloValue v : f.atPeak()) {
            if (out.size() == LISTED || v.size() < SHARE * f.peakBytes()) break;   // largest first
            if (ActivationRule.isActivation(f, v) || f.usedAt(v, f.peakTime()) || !usedAfter(f, v)) continue;
            if (isInput(f, v)) continue;   // a program cannot remat its inputs: donation is the donation rule's
            out.add(new Advice(name(), v.label() + " (" + Units.human(v.size()) + ") is idle across the peak until step " + nextUse(f, v),
                    Edit.Remat.of(Facts.byId(List.of(v))), List.of(v)));
        }
        return out;
    }

    /** Entry parameters and constants: made before the program runs, so there is nothing to recompute. */
    static boolean isInput(Facts f, HloValue v) {
        var a = f.allocation(v);
        return a != null && (a.isParameter() || a.constant());
    }

    /** Whether {@code v} is read after the peak. */
    static boolean usedAfter(Facts f, HloValue v) { return nextUse(f, v) >= 0; }

    private static int nextUse(Facts f, HloValue v) {
        int best = -1;
        for (var u : v.uses()) {
            int t = f.module().timeOf(u.user());
            if (t > f.peakTime() && (best < 0 || t < best)) best = t;
        }
        return best;
    }
}
