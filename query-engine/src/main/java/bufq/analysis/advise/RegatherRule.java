package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.model.HloValue;
import bufq.analysis.sharding.GatheredWeights;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.List;

/**
 * All-gathered weights of a sharded program held across the peak: gathered in the forward pass, idle
 * there, read again in the backward pass (openxla/xla#20508). A remat policy that does not save the
 * all-gathers gathers each again where the backward pass reads it; {@code remat} measures that.
 */
final class RegatherRule implements Rule {
    static final double SHARE = 0.005;

    @Override public String name() { return "regather"; }

    @Override public String description() {
        return "all-gathered weights idle across the peak, read again after it; saving if gathered again where they are read";
    }

    @Override public List<Advice> find(Facts f) {
        List<HloValue> held = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        long bytes = 0;
        for (HloValue v : f.atPeak()) {
            if (v.size() < SHARE * f.peakBytes()) break;   // largest first
            String path = GatheredWeights.parameterOf(f.module(), v, f.category(v));
            if (path == null || f.usedAt(v, f.peakTime()) || !IdleRule.usedAfter(f, v)) continue;
            held.add(v);
            bytes += v.size();
            if (!paths.contains(path)) paths.add(path);
        }
        if (held.isEmpty()) return List.of();
        String names = paths.size() <= 3 ? String.join(", ", paths) : String.join(", ", paths.subList(0, 3)) + " and " + (paths.size() - 3) + " more";
        return List.of(new Advice(name(), held.size() + (held.size() == 1 ? " all-gathered weight (" : " all-gathered weights (") + names + ", "
                + Units.human(bytes) + ") " + (held.size() == 1 ? "is" : "are") + " held across the peak from the forward pass to the backward:"
                + " gather them again where they are read (jax.checkpoint with a policy that saves no all-gather, e.g."
                + " jax.checkpoint_policies.nothing_saveable around each layer)", Edit.Remat.of(Facts.byId(held)), held));
    }
}
