package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.units.Units;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every activation the forward pass leaves for the backward pass, as one change: the layers stacked
 * and run by {@code jax.lax.scan} over a {@code jax.checkpoint}-ed layer. The loop keeps each
 * layer's recomputation inside its own iteration, so a scheduler that gathers a plain
 * {@code jax.checkpoint}'s recomputations together (XLA:CPU) cannot gather these: only the carry and
 * one layer's residuals stay. Measured as all of them rematerialised; {@link Recompilation} says
 * what real builds of this kind delivered.
 */
final class ScanRematRule implements Rule {
    static final String NAME = "scan-remat";
    /** Fewer op_names than this is not a stack of layers. */
    static final int MIN_GROUPS = 2;

    @Override public String name() { return NAME; }

    @Override public String description() {
        return "forward activations of several op_names idle across the peak; saving if the layers ran under lax.scan"
                + " over a jax.checkpoint-ed layer";
    }

    @Override public List<Advice> find(Facts f) {
        List<HloValue> vs = new ArrayList<>();
        Set<String> ops = new HashSet<>();
        boolean inLoop = false;
        long bytes = 0;
        for (HloValue v : f.atPeak()) {
            if (!ActivationRule.isActivation(f, v) || f.usedAt(v, f.peakTime())) continue;
            vs.add(v);
            String op = f.opName(v);
            ops.add(op);
            inLoop |= op.contains("/while/body/");
            bytes += v.size();
        }
        if (vs.size() < 2 || ops.size() < MIN_GROUPS) return List.of();
        String change = inLoop
                ? "the layers already run in a lax.scan: wrap its body, jax.lax.scan(jax.checkpoint(layer), x, stacked_params)"
                : "stack the layers' parameters and run them with jax.lax.scan(jax.checkpoint(layer), x, stacked_params)";
        return List.of(new Advice(name(), vs.size() + " activations of " + ops.size() + " op_names (" + Units.human(bytes)
                + ") wait across the peak for the backward pass: " + change + ", so each iteration recomputes its own"
                + " layer and only the carry and one layer's residuals stay", Edit.Remat.of(Facts.byId(vs)), vs));
    }
}
