package bufq.analysis.advise;

import bufq.model.BufferAllocation;
import bufq.model.HloValue;
import bufq.model.Shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Entry parameters that are not donated although an output has their shape and dtype: with
 * {@code donate_argnums} XLA may reuse their bytes for that output.
 */
final class DonationRule implements Rule {
    @Override public String name() { return "donation"; }

    @Override public String description() {
        return "parameters not donated whose shape and dtype match an output (missing donate_argnums); saving if donated";
    }

    @Override public List<Advice> find(Facts f) {
        Set<String> outputs = new HashSet<>();
        for (HloValue v : f.module().values()) {
            BufferAllocation a = f.allocation(v);
            if (a != null && (a.maybeLiveOut() || a.isOutput()) && !a.isParameter() && v.shape() != null) outputs.add(key(v.shape()));
        }
        List<HloValue> candidates = new ArrayList<>();
        for (HloValue v : f.module().values()) {
            BufferAllocation a = f.allocation(v);
            if (a == null || !a.isParameter() || a.maybeLiveOut() || v.shape() == null || !v.shape().isArray()) continue;
            if (outputs.contains(key(v.shape()))) candidates.add(v);
        }
        if (candidates.isEmpty()) return List.of();
        candidates.sort((a, b) -> Long.compare(b.size(), a.size()));
        return List.of(new Advice(name(), candidates.size() + (candidates.size() == 1 ? " parameter is" : " parameters are")
                + " not donated but " + (candidates.size() == 1 ? "matches" : "match") + " an output's shape and dtype: pass donate_argnums",
                "donate where " + Facts.byId(candidates), candidates, 0));
    }

    /** dtype and dimensions, without layout: what donation needs to match. */
    private static String key(Shape s) { return s.dtype() + Arrays.toString(s.dims()); }
}
