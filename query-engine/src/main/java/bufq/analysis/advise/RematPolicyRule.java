package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.units.Units;
import bufq.analysis.category.Categories;
import bufq.analysis.liveness.UseSchedule;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;

/**
 * A remat policy instead of a full {@code jax.checkpoint}: keep the residuals that are dot outputs
 * (costly to recompute: {@code jax.checkpoint_policies.checkpoint_dots}) and recompute the rest
 * (elementwise and reductions, cheap to recompute from the kept dots). Measured as {@code remat} of
 * the residuals idle across the peak that are not {@code dot_general} outputs; it is a
 * recompilation, so its figure is {@link Recompilation}'s estimate like every remat's.
 */
final class RematPolicyRule implements Rule {
    static final String NAME = "remat-policy";

    @Override public String name() { return NAME; }

    @Override public String description() {
        return "residuals idle across the peak that are not dot outputs; saving if a policy kept the dots and recomputed"
                + " these (jax.checkpoint_policies.checkpoint_dots)";
    }

    @Override public List<Advice> find(Facts f) {
        List<HloValue> recomputed = new ArrayList<>();
        long kept = 0, bytes = 0;
        int dots = 0;
        for (HloValue v : f.atPeak()) {
            if (!"residuals".equals(f.category(v)) || UseSchedule.idleAt(f.module(), v, f.peakTime()) == null) continue;
            if (isDot(f.opName(v))) {
                dots++;
                kept += v.size();
            } else {
                recomputed.add(v);
                bytes += v.size();
            }
        }
        if (recomputed.isEmpty()) return List.of();
        return List.of(new Advice(NAME, recomputed.size() + (recomputed.size() == 1 ? " residual that is not a dot output ("
                : " residuals that are not dot outputs (") + Units.human(bytes)
                + ") wait across the peak" + (dots == 0 ? "" : ", beside " + dots + (dots == 1 ? " dot output (" : " dot outputs (") + Units.human(kept) + ")")
                + ": jax.checkpoint(policy=jax.checkpoint_policies.checkpoint_dots) keeps the dots and recomputes these",
                Edit.Remat.of(Facts.byId(recomputed)), recomputed));
    }

    /** A dot_general's output, by the last part of its op_name ({@code jit(f)/jvp()/dot_general}). */
    static boolean isDot(String opName) {
        List<String> parts = Categories.splitOpName(opName);
        return !parts.isEmpty() && parts.get(parts.size() - 1).startsWith("dot_general");
    }
}
