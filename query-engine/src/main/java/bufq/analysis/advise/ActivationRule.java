package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.analysis.category.OpNames;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Activations saved by the forward pass for the backward pass: born under a {@code jvp(} op_name,
 * read under a {@code transpose(} one, live and idle at the peak. Grouped by the op_name that made
 * them; each group's saving is what rematerialising it ({@code jax.checkpoint}) would free.
 */
final class ActivationRule implements Rule {
    static final int GROUPS = 5;

    @Override public String name() { return "activations"; }

    @Override public String description() {
        return "values born under jvp( and read under transpose(, idle across the peak; saving if each group were rematerialised";
    }

    @Override public List<Advice> find(Facts f) {
        Map<String, List<HloValue>> groups = new LinkedHashMap<>();
        for (HloValue v : f.atPeak()) {
            if (!isActivation(f, v) || f.usedAt(v, f.peakTime())) continue;
            groups.computeIfAbsent(f.opName(v), k -> new ArrayList<>()).add(v);
        }
        List<Advice> out = new ArrayList<>();
        for (Map.Entry<String, List<HloValue>> g : groups.entrySet()) {
            List<HloValue> vs = g.getValue();
            out.add(new Advice(name(), vs.size() + (vs.size() == 1 ? " activation" : " activations") + " from " + g.getKey()
                    + " wait across the peak for the backward pass: rematerialise (jax.checkpoint)",
                    Edit.Remat.of(Facts.byId(vs)), vs));
        }
        out.sort((a, b) -> Long.compare(total(b), total(a)));
        return out.size() > GROUPS ? out.subList(0, GROUPS) : out;
    }

    static boolean isActivation(Facts f, HloValue v) {
        String op = f.opName(v);
        if (!OpNames.forward(op)) return false;   // born in the forward pass
        for (String u : f.userOpNames(v)) if (OpNames.backward(u)) return true;
        return false;
    }

    private static long total(Advice a) {
        long s = 0;
        for (HloValue v : a.values()) s += v.size();
        return s;
    }
}
