package bufq.analysis.forecast;

import bufq.analysis.liveness.Liveness;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloModuleBuilder;
import bufq.model.HloValue;
import bufq.model.Shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A series' program at size {@code N} as a module of its own: the schedule, live ranges and
 * allocations of the loaded size nearest {@code N} (the template), every value's shape and size
 * from its {@link Law}. Its {@link Liveness} is the sweep {@code peak} and {@code whatif} run, so
 * its peak, its occupancy per step and {@code needs_bytes} come out as a compiled module's would.
 *
 * <p>Offsets: a temp allocation is packed at {@code N} as XLA packs it ({@link TempPacking}) where
 * the heap simulator, replayed on the template's own sizes, gives back the template's offsets; a
 * value that outgrows the parameter's buffer XLA had put it in joins that temp. Elsewhere (a while
 * loop's phi buffers, a size where a temp value could move into a parameter's buffer) what
 * occupancy counts is which live values share bytes: in the template, the values of an allocation
 * that overlap in bytes while both live form a group; at {@code N} each group keeps its members'
 * offsets relative to its start (scaled with its largest member) and the groups sit one after
 * another. On the template itself this gives back the template's occupancy exactly. Such an
 * allocation's size is its largest occupancy at {@code N} times its ratio of size to largest
 * occupancy in the template (1 for a parameter, the packing's slack for a temp).
 */
final class Projection {
    private Projection() {}

    /** The module at {@code n}, built on {@code series.modules().get(template)}; null when a shape is not whole at {@code n}. */
    static HloModule at(ProgramSeries series, int template, long n) {
        HloModule t = series.modules().get(template);
        List<HloValue> vs = t.values();
        int count = vs.size();
        Shape[] shape = new Shape[count];
        long[] size = new long[count];
        if (!sized(series, template, n, shape, size)) return null;
        TempPacking packed = TempPacking.at(t, size, shape);
        Map<Integer, List<Integer>> byAllocation = new HashMap<>();
        for (int j = 0; j < count; j++)
            if (packed.offset()[j] < 0) byAllocation.computeIfAbsent(vs.get(j).allocation(), k -> new ArrayList<>()).add(j);
        long[] offset = offsets(t, size, byAllocation);
        byAllocation.clear();
        for (int j = 0; j < count; j++) byAllocation.computeIfAbsent(packed.allocation()[j], k -> new ArrayList<>()).add(j);
        List<HloValue> out = new ArrayList<>(count);
        for (int j = 0; j < count; j++) {
            HloValue v = vs.get(j);
            if (packed.offset()[j] >= 0) offset[j] = packed.offset()[j];
            out.add(new HloValue(v.id(), v.name(), v.index(), v.indexPrinted(), v.phi(), v.color(), size[j], offset[j],
                    packed.allocation()[j], shape[j], v.positions(), v.uses(), v.range()));
        }
        HloModule draft = new HloModuleBuilder(t.info().withHandle(t.info().name() + " at " + ProgramSeries.VAR + "=" + n))
                .allocations(t.allocations()).values(out).instructions(t.instructions()).sequence(t.sequence())
                .warnings(t.warnings(), t.warningCount()).build();
        List<BufferAllocation> allocations = allocations(t, draft, out, shape, byAllocation, packed.size());
        return new HloModuleBuilder(draft.info()).allocations(allocations).values(out).instructions(t.instructions())
                .sequence(t.sequence()).warnings(t.warnings(), t.warningCount()).build();
    }

    /** How the temps are packed at {@code n}; null when a shape is not whole there. */
    static TempPacking packing(ProgramSeries series, int template, long n) {
        HloModule t = series.modules().get(template);
        Shape[] shape = new Shape[t.values().size()];
        long[] size = new long[shape.length];
        return sized(series, template, n, shape, size) ? TempPacking.at(t, size, shape) : null;
    }

    /** Each value's shape and bytes at {@code n} from its law, into {@code shape} and {@code size}; false when one is not whole. */
    private static boolean sized(ProgramSeries series, int template, long n, Shape[] shape, long[] size) {
        List<HloValue> vs = series.modules().get(template).values();
        Law[] law = series.lawsOf(template);
        for (int j = 0; j < shape.length; j++) {
            shape[j] = law[j].shapeAt(n);
            size[j] = law[j].bytesAt(n);
            if (law[j].num().length > 0 && (shape[j] == null || size[j] < 0)) return false;
            if (shape[j] == null) shape[j] = vs.get(j).shape();
        }
        return true;
    }

    /** Offsets at the new sizes: each group of byte-sharing values keeps its layout, groups one after another. */
    private static long[] offsets(HloModule t, long[] size, Map<Integer, List<Integer>> byAllocation) {
        List<HloValue> vs = t.values();
        long[] out = new long[vs.size()];
        for (int j = 0; j < out.length; j++) out[j] = vs.get(j).offset();
        for (BufferAllocation a : t.allocations()) {
            List<Integer> members = new ArrayList<>();
            for (int j : byAllocation.getOrDefault(a.index(), List.of())) if (vs.get(j).offset() >= 0) members.add(j);
            if (members.isEmpty()) continue;
            members.sort((x, y) -> Long.compare(vs.get(x).offset(), vs.get(y).offset()));
            int[] root = new int[members.size()];
            for (int q = 0; q < root.length; q++) root[q] = q;
            for (int q = 0; q < root.length; q++) {
                HloValue v = vs.get(members.get(q));
                long end = v.offset() + v.size();
                for (int r = q + 1; r < root.length && vs.get(members.get(r)).offset() < end; r++) {
                    HloValue w = vs.get(members.get(r));
                    if (bothLive(v, w)) union(root, q, r);
                }
            }
            // groups in the order of their first member's offset; each laid out from where the last ended
            long next = 0;
            long[] base = new long[root.length], scale = new long[root.length], scaleNow = new long[root.length];
            Arrays.fill(base, -1);
            for (int q = 0; q < root.length; q++) {
                int g = find(root, q), j = members.get(q);
                if (vs.get(j).size() > scale[g]) {
                    scale[g] = vs.get(j).size();
                    scaleNow[g] = size[j];
                }
            }
            long[] start = new long[root.length], span = new long[root.length];
            for (int q = 0; q < root.length; q++) {
                int g = find(root, q);
                if (base[g] < 0) base[g] = vs.get(members.get(q)).offset();
            }
            for (int q = 0; q < root.length; q++) {
                int g = find(root, q), j = members.get(q);
                long rel = vs.get(j).offset() - base[g];
                long relNow = rel == 0 || scale[g] == 0 ? rel : Math.round((double) rel * scaleNow[g] / scale[g]);
                out[j] = relNow;   // relative for now
                span[g] = Math.max(span[g], relNow + size[j]);
            }
            boolean[] placed = new boolean[root.length];
            for (int q = 0; q < root.length; q++) {
                int g = find(root, q);
                if (placed[g]) continue;
                placed[g] = true;
                start[g] = next;
                next += span[g];
            }
            for (int q = 0; q < root.length; q++) out[members.get(q)] += start[find(root, q)];
        }
        return out;
    }

    private static boolean bothLive(HloValue v, HloValue w) {
        return v.hasRange() && w.hasRange() && v.rangeStart() <= w.rangeEnd() && w.rangeStart() <= v.rangeEnd()
                && v.size() > 0 && w.size() > 0;
    }

    private static int find(int[] root, int q) {
        while (root[q] != q) q = root[q] = root[root[q]];
        return q;
    }

    private static void union(int[] root, int a, int b) {
        int x = find(root, a), y = find(root, b);
        if (x != y) root[Math.max(x, y)] = Math.min(x, y);
    }

    /** The template's allocations at the new sizes: each its largest occupancy at {@code N} times its template ratio. */
    private static List<BufferAllocation> allocations(HloModule t, HloModule draft, List<HloValue> values, Shape[] shape,
                                                      Map<Integer, List<Integer>> byAllocation, Map<Integer, Long> packed) {
        Liveness before = Liveness.of(t), now = Liveness.of(draft);
        Set<Integer> moved = new HashSet<>();   // allocations a value moved into or out of
        for (int j = 0; j < values.size(); j++) {
            if (t.values().get(j).allocation() == values.get(j).allocation()) continue;
            moved.add(t.values().get(j).allocation());
            moved.add(values.get(j).allocation());
        }
        List<BufferAllocation> out = new ArrayList<>(t.allocations().size());
        for (BufferAllocation a : t.allocations()) {
            long was = use(before, a.index()), is = use(now, a.index());
            long size;
            if (packed.containsKey(a.index())) {
                size = packed.get(a.index());
            } else if (was > 0) {
                size = Math.max(is, Math.round((double) a.size() * is / was));
            } else {
                // no value live in it (a constant): as large as its values' bytes reach
                size = a.size();
                long reach = 0;
                boolean any = false;
                for (int j : byAllocation.getOrDefault(a.index(), List.of())) {
                    HloValue v = values.get(j);
                    any = true;
                    reach = Math.max(reach, Math.max(v.offset(), 0) + v.size());
                }
                if (any) size = reach;
            }
            Shape param = a.parameterShape();
            if (a.isParameter()) {
                for (int j : byAllocation.getOrDefault(a.index(), List.of())) {
                    HloValue v = values.get(j);
                    if (v.offset() <= 0 && shape[j] != null && shape[j].isArray()
                            && a.parameterShape() != null && a.parameterShape().rank() == shape[j].rank()) {
                        param = shape[j];
                        break;
                    }
                }
            }
            out.add(new BufferAllocation(a.index(), size, a.color(), a.parameter(), param, a.shapeIndex(), a.outputShape(),
                    a.constant(), a.threadLocal(), a.maybeLiveOut(), a.preallocatedTemp(), a.pointer(), true, ids(values, byAllocation, moved, a)));
        }
        return out;
    }

    /** The allocation's value ids, as the template lists them unless a value moved in or out. */
    private static List<Long> ids(List<HloValue> values, Map<Integer, List<Integer>> byAllocation, Set<Integer> moved,
                                  BufferAllocation a) {
        if (!moved.contains(a.index())) return a.valueIds();
        List<Integer> now = byAllocation.getOrDefault(a.index(), List.of());
        List<Long> out = new ArrayList<>(now.size());
        for (int j : now) out.add(values.get(j).id());
        return out;
    }

    private static long use(Liveness l, int allocation) {
        try {
            Liveness.AllocationUse u = l.allocationUse(allocation);
            return u == null ? 0 : u.maxBytes();
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }
}
