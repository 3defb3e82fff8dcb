package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.model.BufferAllocation;
import bufq.model.HloValue;
import bufq.model.Shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Entry parameters that are not donated although an output has their shape and dtype: with
 * {@code donate_argnums} XLA may reuse their bytes for that output. One output takes one parameter:
 * of three same-shaped parameters and one output of their shape, one can alias (the largest kept),
 * so the measured saving is what donation can really free.
 */
final class DonationRule implements Rule {
    @Override public String name() { return "donation"; }

    @Override public String description() {
        return "parameters not donated whose shape and dtype match an output (missing donate_argnums); saving if donated";
    }

    @Override public List<Advice> find(Facts f) {
        // each output allocation not already a parameter's can take one donated parameter of its shape
        Map<String, Set<Integer>> outputs = new HashMap<>();
        for (HloValue v : f.module().values()) {
            BufferAllocation a = f.allocation(v);
            if (a != null && (a.maybeLiveOut() || a.isOutput()) && !a.isParameter() && v.shape() != null && v.shape().isArray())
                outputs.computeIfAbsent(key(v.shape()), k -> new HashSet<>()).add(a.index());
        }
        List<HloValue> params = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        for (HloValue v : f.module().values()) {
            BufferAllocation a = f.allocation(v);
            if (a == null || !a.isParameter() || a.maybeLiveOut() || v.shape() == null || !v.shape().isArray()) continue;
            if (outputs.containsKey(key(v.shape())) && seen.add(a.index())) params.add(v);
        }
        params.sort((a, b) -> Long.compare(b.size(), a.size()));
        Map<String, Integer> left = new HashMap<>();
        for (Map.Entry<String, Set<Integer>> e : outputs.entrySet()) left.put(e.getKey(), e.getValue().size());
        List<HloValue> candidates = new ArrayList<>();
        TreeSet<Integer> numbers = new TreeSet<>();
        for (HloValue v : params) {
            String k = key(v.shape());
            int n = left.getOrDefault(k, 0);
            if (n == 0) continue;   // every output of this shape is taken: donating more aliases nothing
            left.put(k, n - 1);
            candidates.add(v);
            numbers.add(f.allocation(v).parameter());
        }
        if (candidates.isEmpty()) return List.of();
        String argnums = numbers.stream().map(String::valueOf).collect(Collectors.joining(", "));
        return List.of(new Advice(name(), candidates.size() + (candidates.size() == 1 ? " parameter is" : " parameters are")
                + " not donated but can alias an output of its shape and dtype (one output each): donate_argnums=("
                + argnums + (numbers.size() == 1 ? "," : "") + ") (entry parameter numbers: the flattened arguments)",
                Edit.Donate.of(Facts.byId(candidates)), candidates));
    }

    /** dtype and dimensions, without layout: what donation needs to match. */
    private static String key(Shape s) { return s.dtype() + Arrays.toString(s.dims()); }
}
