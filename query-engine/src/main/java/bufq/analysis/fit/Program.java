package bufq.analysis.fit;

import bufq.analysis.category.Categories;
import bufq.model.ProgramSizes;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.MemorySpace;
import bufq.model.Shape;
import bufq.analysis.liveness.Liveness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What {@code fit} keeps of one loaded module: its figures, the arrays a caller may hold after it,
 * its largest preallocated temp allocation and bufq's own occupancy peak. Small, so thousands fit.
 *
 * @param tempAllocation the largest preallocated temp allocation's index, -1 when none
 * @param peakBytes      bytes occupied at bufq's peak (live values, each byte once), -1 without live ranges
 * @param backend        {@code cpu}, {@code gpu}, {@code tpu} or {@code unknown}: what JAX's figures mean differs
 */
public record Program(String handle, String name, ProgramSizes sizes, List<HeldArray> arrays, int tempAllocation,
                      long peakBytes, String backend) {
    public Program {
        arrays = List.copyOf(arrays);
        if (backend == null) backend = "unknown";
    }

    public Program(String handle, String name, ProgramSizes sizes, List<HeldArray> arrays, int tempAllocation, long peakBytes) {
        this(handle, name, sizes, arrays, tempAllocation, peakBytes, null);
    }

    public static Program of(HloModule m) {
        List<HeldArray> arrays = new ArrayList<>();
        Map<Integer, String> kinds = parameterCategories(m);
        Map<String, TreeSet<String>> kept = keptKindsByShape(m, kinds);
        int temp = -1;
        long tempSize = -1;
        // The device memory's arrays only: a TPU's VMEM and host-offload allocations are other memories.
        boolean spaces = MemorySpace.several(m);
        for (BufferAllocation a : m.allocations()) {
            if (spaces && a.color() != MemorySpace.DEVICE) continue;
            boolean out = ProgramSizes.liveOut(a);
            if (a.isParameter()) {
                String c = kinds.get(a.index());
                arrays.add(new HeldArray(m.handle(), a.index(), "parameter " + a.parameter() + (out ? ", output" : ""),
                        a.parameterShape() == null ? null : a.parameterShape().text(), a.size(), c == null || !out ? c : c + ", new state"));
            } else if (out) {
                String shape = a.outputShape() != null ? a.outputShape().text() : liveOutShape(m, a);
                arrays.add(new HeldArray(m.handle(), a.index(), "output", shape, a.size(), outputCategory(kept, shape)));
            } else if (a.isTemp() && a.size() > tempSize) {
                temp = a.index();
                tempSize = a.size();
            }
        }
        Liveness l = Liveness.of(m);
        long peak = l.peakTime() >= 0 ? l.peakBytes() : -1;
        return new Program(m.handle(), m.info().name(), ProgramSizes.of(m), arrays, temp, peak, m.info().backend());
    }

    public long needsBytes() { return sizes.needsBytes(); }

    /**
     * The array a live-out allocation hands back, where the dump prints no {@code output shape} (every
     * era since TF's): the one shape of the values in it that fill it and live to the program's end. An
     * XLA:CPU output allocation also holds the program's earlier temporaries (a {@code jax.jit(init)}'s
     * 2 MiB codebook shares it with a dozen random bits), so the allocation's own shape says nothing.
     * Null when no value or several shapes qualify: an array of unknown shape is matched to no argument.
     */
    private static String liveOutShape(HloModule m, BufferAllocation a) {
        int end = m.info().maxTime();
        String shape = null;
        for (long id : a.valueIds()) {
            HloValue v = m.value(id);
            if (v == null || v.shape() == null || !v.shape().isArray() || v.size() != a.size()) continue;
            if (end >= 0 && !(v.hasRange() && v.rangeEnd() >= end)) continue;
            String text = Shape.withoutLayout(v.shape().text());   // as a parameter's shape prints
            if (shape != null && !shape.equals(text)) return null;
            shape = text;
        }
        return shape;
    }

    /** This program under another handle (a session tells two programs of one name apart as {@code NAME#2}). */
    public Program renamed(String newHandle) {
        return new Program(newHandle, name, sizes, arrays.stream()
                .map(a -> new HeldArray(newHandle, a.allocation(), a.role(), a.shape(), a.bytes(), a.category())).toList(),
                tempAllocation, peakBytes, backend);
    }

    /**
     * Each parameter allocation's category: that of its largest value that is not an output (the
     * entry parameter's: {@code weights}, {@code optimizer}, {@code inputs}, {@code parameters}).
     */
    private static Map<Integer, String> parameterCategories(HloModule m) {
        Categories c = Categories.of(m);
        Map<Integer, String> out = new HashMap<>();
        Map<Integer, Long> largest = new HashMap<>();
        List<HloValue> vs = m.values();
        for (int i = 0; i < vs.size(); i++) {
            HloValue v = vs.get(i);
            BufferAllocation a = m.allocation(v.allocation());
            if (a == null || !a.isParameter() || "outputs".equals(c.name(i))) continue;
            if (v.size() > largest.getOrDefault(a.index(), -1L)) {
                largest.put(a.index(), v.size());
                out.put(a.index(), c.name(i));
            }
        }
        return out;
    }

    /**
     * The categories of the parameters that are not donated, by shape text: built once, so matching
     * every output stays linear in the allocations (a scan of them per output was quadratic).
     */
    private static Map<String, TreeSet<String>> keptKindsByShape(HloModule m, Map<Integer, String> kinds) {
        Map<String, TreeSet<String>> out = new HashMap<>();
        for (BufferAllocation p : m.allocations()) {
            if (!p.isParameter() || ProgramSizes.liveOut(p) || p.parameterShape() == null) continue;
            String k = kinds.get(p.index());
            if (k != null) out.computeIfAbsent(p.parameterShape().text(), x -> new TreeSet<>()).add(k);
        }
        return out;
    }

    /**
     * An output's category: the new state of the parameters it matches by shape and dtype that are
     * not donated ({@code outputs: new weights}) when they are all of one category other than
     * {@code inputs}, else {@code outputs: result}.
     */
    private static String outputCategory(Map<String, TreeSet<String>> keptKindsByShape, String shape) {
        TreeSet<String> matched = shape == null ? null : keptKindsByShape.get(shape);
        if (matched != null && matched.size() == 1 && !matched.contains("inputs") && !matched.contains("parameters"))
            return "outputs: new " + matched.first();
        return "outputs: result";
    }
}
