package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.analysis.category.OpNames;
import bufq.units.Units;
import bufq.analysis.liveness.UseSchedule;
import bufq.model.HloModule;
import bufq.model.HloUse;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Residuals (activations the forward pass saves for the backward pass, {@code bufq.analysis.category}'s
 * {@code residuals}) that wait across the peak between their last forward use and their first
 * backward use: a {@code jax.checkpoint} policy that offloads them to host memory takes them out of
 * device memory over exactly that stretch. Measured as the {@code remat} edit, which frees each
 * value over its idle stretch around the peak and brings it back for its next use: what an offload
 * does to device memory with transfers that take no time. The real copies out and back hold the
 * device buffer longer, and XLA schedules the copy back early, so the figure is an upper bound,
 * never more than the residuals' bytes at the peak (the edit changes only their ranges). Not a
 * recompilation: nothing is recomputed, so XLA:CPU's scheduling of recomputations does not apply.
 */
final class OffloadRule implements Rule {
    static final String NAME = "offload";

    @Override public String name() { return NAME; }

    @Override public String description() {
        return "residuals idle across the peak from their forward use to their backward use; saving (an upper bound)"
                + " if each were on the host over that stretch (a jax.checkpoint offload policy)";
    }

    @Override public List<Advice> find(Facts f) {
        List<HloValue> vs = new ArrayList<>();
        long bytes = 0;
        for (HloValue v : f.atPeak()) {
            if (!waitsForBackward(f, v)) continue;
            vs.add(v);
            bytes += v.size();
        }
        if (vs.isEmpty()) return List.of();
        return List.of(new Advice(NAME, vs.size() + (vs.size() == 1 ? " residual" : " residuals") + " (" + Units.human(bytes)
                + ") wait on the device across the peak from their forward use to their backward use: offload them to host"
                + " (name them with jax.ad_checkpoint.checkpoint_name and use jax.checkpoint with policy="
                + "jax.checkpoint_policies.save_and_offload_only_these_names(names_which_can_be_saved=[],"
                + " names_which_can_be_offloaded=[...], offload_src='device', offload_dst='pinned_host');"
                + " offload_dot_with_no_batch_dims offloads the dots among them); the whatif frees each over that stretch with"
                + " instant copies, so the real copies out and back save at most this",
                Edit.Remat.of(Facts.byId(vs)), vs));
    }

    /**
     * Whether {@code v} is a residual whose idle stretch around the peak runs from a forward-pass
     * step (its birth or a forward use) to a backward use: an offload frees it there. A residual
     * already read by the backward pass before the peak is back on the device, so it is left out.
     */
    static boolean waitsForBackward(Facts f, HloValue v) {
        if (!"residuals".equals(f.category(v))) return false;
        HloModule m = f.module();
        UseSchedule.Stretch idle = UseSchedule.idleAt(m, v, f.peakTime());
        if (idle == null) return false;
        boolean backAfter = false;
        for (HloUse u : v.uses()) {
            int t = m.timeOf(u.user());
            if (t < 0) continue;
            boolean backward = backward(m, u);
            if (t < idle.from() && backward) return false;
            if (t == idle.to() + 1 && backward) backAfter = true;
        }
        return backAfter;
    }

    private static boolean backward(HloModule m, HloUse u) {
        var i = m.instruction(u.user());
        return i != null && OpNames.backward(i.opName());
    }
}
