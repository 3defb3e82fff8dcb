package bufq.analysis.forecast;

import bufq.analysis.diff.MatchKey;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.MemorySpace;
import bufq.model.Shape;
import bufq.table.ColumnType;
import bufq.table.Table;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A series whose values do not all pair: one program compiled at several sizes by a compiler that
 * changes more than the shapes with the size (XLA:TPU prefetches into VMEM with {@code copy-start}
 * and {@code slice-start}, adds SMEM sync flags and asynchronous copies' tuples, in numbers that
 * change with the size, and schedules each size its own way). Each memory space is paired on its
 * own, from its own values: a key whose values are as many at every size pairs them in schedule
 * order and fits their shapes' laws, as a strict series does; the values of a key whose count
 * differs are held at their size in the module the forecast is built on, and said (by space, how
 * many and how many bytes). The forecast at {@code N} is then the nearest loaded size's program,
 * its own schedule, with every value at its law's size ({@link Projection}).
 */
final class SpaceSeries {
    private SpaceSeries() {}

    /** A value key within one memory space. */
    private record SpaceKey(int color, MatchKey key) {}

    static ProgramSeries of(List<HloModule> given, String dim, NotASeries strictRefusal) throws NotASeries {
        Sized sized = size(given, dim);
        Integer[] order = new Integer[given.size()];
        for (int k = 0; k < order.length; k++) order[k] = k;
        Arrays.sort(order, Comparator.comparingLong(k -> sized.ns[k]));
        List<HloModule> ms = new ArrayList<>();
        long[] ns = new long[order.length];
        for (int k = 0; k < order.length; k++) {
            ms.add(given.get(order[k]));
            ns[k] = sized.ns[order[k]];
            if (k > 0 && ns[k] == ns[k - 1]) throw new NotASeries(ms.get(k - 1).handle() + " and " + ms.get(k).handle()
                    + " have the same size (" + sized.dimension + " = " + ns[k] + "); a series needs each size once", null);
        }
        List<Map<SpaceKey, List<Integer>>> groups = new ArrayList<>();
        for (HloModule m : ms) groups.add(groups(m));
        Law[][] byModule = new Law[ms.size()][];
        for (int k = 0; k < ms.size(); k++) byModule[k] = new Law[ms.get(k).values().size()];
        // per space: keys that did not pair, and their values and bytes in each module
        TreeMap<Integer, long[]> unpairedKeys = new TreeMap<>();
        TreeMap<Integer, long[][]> unpaired = new TreeMap<>();   // colour -> module -> {values, bytes}
        boolean[][] held = new boolean[ms.size()][];
        for (int k = 0; k < ms.size(); k++) held[k] = new boolean[ms.get(k).values().size()];
        Map<Integer, String> largest = new HashMap<>();
        Map<Integer, Long> largestBytes = new HashMap<>();
        LinkedHashSet<SpaceKey> keys = new LinkedHashSet<>();
        for (Map<SpaceKey, List<Integer>> g : groups) keys.addAll(g.keySet());
        List<Set<String>> byOp = shapesByOp(ms, groups);
        for (SpaceKey key : keys) {
            int count = -1;
            boolean same = true;
            for (Map<SpaceKey, List<Integer>> g : groups) {
                int c = g.getOrDefault(key, List.of()).size();
                same &= count < 0 || c == count;
                count = c;
            }
            if (same) {
                for (int j = 0; j < count; j++) {
                    Law law = law(ms, groups, key, j, ns);
                    for (int k = 0; k < ms.size(); k++) {
                        int at = groups.get(k).get(key).get(j);
                        byModule[k][at] = law != null ? law : Law.constant(ms.get(k).values().get(at).shape(), ms.get(k).values().get(at).size());
                    }
                }
                continue;
            }
            // As many distinct shapes at every size (a key whose values are more or fewer at one size,
            // but of the same shapes): each value follows the law of its shape.
            Map<String, Law>[] byShape = shapeLaws(ms, groups, key, ns);
            unpairedKeys.computeIfAbsent(key.color(), c -> new long[1])[0]++;
            long[][] per = unpaired.computeIfAbsent(key.color(), c -> new long[ms.size()][2]);
            for (int k = 0; k < ms.size(); k++) {
                for (int at : groups.get(k).getOrDefault(key, List.of())) {
                    HloValue v = ms.get(k).values().get(at);
                    Law law = byShape == null || v.shape() == null ? null : byShape[k].get(v.shape().text());
                    if (law == null) law = sizedDims(ms, byOp, key, k, v, ns);
                    if (law != null) {
                        byModule[k][at] = law;
                        continue;
                    }
                    byModule[k][at] = Law.constant(v.shape(), v.size());
                    held[k][at] = true;
                    per[k][0]++;
                    per[k][1] += v.size();
                    if (k == ms.size() - 1 && v.size() > largestBytes.getOrDefault(key.color(), -1L)) {
                        largestBytes.put(key.color(), v.size());
                        largest.put(key.color(), opName(ms.get(k), v) + " " + (v.shape() == null ? "" : v.shape().text()));
                    }
                }
            }
        }
        Table.Builder t = Table.builder().key("values_that_did_not_pair").title("values that did not pair, by memory space (each held at its size in the module built on)")
                .column("space", ColumnType.STRING).column("color", ColumnType.INT).column("keys", ColumnType.INT);
        for (HloModule m : ms) t.column(m.handle() + "_values", ColumnType.INT).column(m.handle() + "_bytes", ColumnType.BYTES);
        t.column("largest", ColumnType.STRING);
        for (Map.Entry<Integer, long[][]> e : unpaired.entrySet()) {
            List<Object> row = new ArrayList<>(List.of(MemorySpace.name(ms.get(0), e.getKey()), (long) e.getKey(),
                    unpairedKeys.get(e.getKey())[0]));
            for (long[] per : e.getValue()) {
                row.add(per[0]);
                row.add(per[1]);
            }
            row.add(largest.get(e.getKey()));
            t.row(row);
        }
        t.note("the strict series was refused (" + strictRefusal.getMessage() + "): each memory space is paired on its own instead;"
                + " a key (op_name, source line, role, element type, rank, layout) pairs where its values are as many at every size");
        long devicePaired = 0, deviceAll = 0;
        HloModule last = ms.get(ms.size() - 1);
        for (int i = 0; i < last.values().size(); i++) {
            HloValue v = last.values().get(i);
            if (v.color() != MemorySpace.DEVICE) continue;
            deviceAll += v.size();
            if (!held[ms.size() - 1][i]) devicePaired += v.size();
        }
        t.note(Units.human(devicePaired) + " of the " + Units.human(deviceAll) + " of " + MemorySpace.name(last, MemorySpace.DEVICE)
                + " values in " + last.handle() + " paired; the rest is held at its size");
        int[][] pos = new int[ms.size()][];
        for (int k = 0; k < ms.size(); k++) {
            pos[k] = new int[ms.get(k).values().size()];
            for (int i = 0; i < pos[k].length; i++) pos[k][i] = i;
        }
        return new ProgramSeries(List.copyOf(ms), ns, sized.dimension, pos, byModule[0], byModule, t.build());
    }

    /** The law of the {@code j}th value of {@code key} at every size, or null when its shapes follow none. */
    private static Law law(List<HloModule> ms, List<Map<SpaceKey, List<Integer>>> groups, SpaceKey key, int j, long[] ns) {
        Shape[] shapes = new Shape[ms.size()];
        long[] sizes = new long[ms.size()];
        boolean arrays = true;
        for (int k = 0; k < ms.size(); k++) {
            HloValue w = ms.get(k).values().get(groups.get(k).get(key).get(j));
            shapes[k] = w.shape();
            sizes[k] = w.size();
            arrays &= w.shape() != null && w.shape().isArray() && w.shape().rank() == shapes[0].rank();
        }
        if (!arrays) {
            for (long s : sizes) if (s != sizes[0]) return null;
            return null;
        }
        try {
            return plausible(Law.fit(shapes, sizes, ns, new String[1]));
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /**
     * {@code law} when every dimension grows with the size by a whole step (or stays), else null: a
     * key paired by count alone can pair values that are not one value at two sizes, and a shrinking
     * or fractional dimension would make other sizes no whole shape.
     */
    private static Law plausible(Law law) {
        if (law == null) return null;
        for (int d = 0; d < law.num().length; d++) if (law.num()[d] < 0 || law.den()[d] != 1) return null;
        return law;
    }

    /**
     * Per module, the law of each distinct shape of {@code key}'s values, when every size has as many
     * distinct array shapes and, taken smallest first, they follow laws of the size; else null.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Law>[] shapeLaws(List<HloModule> ms, List<Map<SpaceKey, List<Integer>>> groups, SpaceKey key, long[] ns) {
        List<List<HloValue>> distinct = new ArrayList<>();
        for (int k = 0; k < ms.size(); k++) {
            Map<String, HloValue> one = new LinkedHashMap<>();
            for (int at : groups.get(k).getOrDefault(key, List.of())) {
                HloValue v = ms.get(k).values().get(at);
                if (v.shape() == null || !v.shape().isArray()) return null;
                one.putIfAbsent(v.shape().text(), v);
            }
            List<HloValue> sorted = new ArrayList<>(one.values());
            sorted.sort(Comparator.comparingLong(HloValue::size));
            if (sorted.isEmpty() || !distinct.isEmpty() && sorted.size() != distinct.get(0).size()) return null;
            distinct.add(sorted);
        }
        Map<String, Law>[] out = new Map[ms.size()];
        for (int k = 0; k < ms.size(); k++) out[k] = new HashMap<>();
        for (int j = 0; j < distinct.get(0).size(); j++) {
            Shape[] shapes = new Shape[ms.size()];
            long[] sizes = new long[ms.size()];
            for (int k = 0; k < ms.size(); k++) {
                shapes[k] = distinct.get(k).get(j).shape();
                sizes[k] = distinct.get(k).get(j).size();
                if (shapes[k].rank() != shapes[0].rank()) return null;
            }
            Law law;
            try {
                law = plausible(Law.fit(shapes, sizes, ns, new String[1]));
            } catch (ArithmeticException e) {
                return null;
            }
            if (law == null) return null;
            for (int k = 0; k < ms.size(); k++) out[k].put(shapes[k].text(), law);
        }
        return out;
    }

    /**
     * The law of a value of a key that did not pair whose dimensions equal to its module's size
     * {@code ns[k]} are the size: when every other loaded size has a value of the same op_name and
     * element type with those dimensions at its own size and the others the same (in any memory
     * space: XLA:TPU keeps a small size's value in VMEM and a large one's in HBM), it follows them,
     * its bytes its own shape's at N; else null.
     */
    private static Law sizedDims(List<HloModule> ms, List<Set<String>> shapesByOp, SpaceKey key, int k, HloValue v, long[] ns) {
        Shape s = v.shape();
        if (s == null || !s.isArray()) return null;
        int rank = s.rank();
        long[] num = new long[rank], off = new long[rank], den = new long[rank];
        boolean any = false;
        for (int d = 0; d < rank; d++) {
            den[d] = 1;
            if (s.dim(d) == ns[k]) {
                num[d] = 1;
                any = true;
            } else {
                off[d] = s.dim(d);
            }
        }
        if (!any) return null;
        for (int o = 0; o < ms.size(); o++) {
            if (o == k) continue;
            long[] want = s.dims();
            for (int d = 0; d < rank; d++) if (num[d] == 1) want[d] = ns[o];
            if (!shapesByOp.get(o).contains(opShape(key.key().opGroup(), s.dtype(), want))) return null;
        }
        return new Law(s, num, off, den, new boolean[num.length], v.size() - s.paddedBytes());
    }

    /** Per module, every value's op_name, element type and dimensions, whatever its memory space. */
    private static List<Set<String>> shapesByOp(List<HloModule> ms, List<Map<SpaceKey, List<Integer>>> groups) {
        List<Set<String>> out = new ArrayList<>();
        for (int k = 0; k < ms.size(); k++) {
            Set<String> set = new HashSet<>();
            for (Map.Entry<SpaceKey, List<Integer>> e : groups.get(k).entrySet()) {
                for (int at : e.getValue()) {
                    Shape sh = ms.get(k).values().get(at).shape();
                    if (sh != null && sh.isArray()) set.add(opShape(e.getKey().key().opGroup(), sh.dtype(), sh.dims()));
                }
            }
            out.add(set);
        }
        return out;
    }

    private static String opShape(String op, String dtype, long[] dims) {
        return op + "|" + dtype + Arrays.toString(dims);
    }

    /** Each key's values in schedule order, per memory space. */
    private static Map<SpaceKey, List<Integer>> groups(HloModule m) {
        Map<SpaceKey, List<Integer>> out = new LinkedHashMap<>();
        for (Map.Entry<MatchKey, List<Integer>> e : ProgramSeries.groups(m).entrySet()) {
            for (int i : e.getValue()) out.computeIfAbsent(new SpaceKey(m.values().get(i).color(), e.getKey()), k -> new ArrayList<>()).add(i);
        }
        return out;
    }

    private static String opName(HloModule m, HloValue v) {
        HloInstruction ins = m.instruction(v.name());
        return ins == null || ins.opName() == null || ins.opName().isEmpty() ? v.label() : v.label() + " (" + ins.opName() + ")";
    }

    private record Sized(long[] ns, String dimension) {}

    /**
     * The size of each module from its entry parameters, matched by parameter number (the values
     * need not pair): the named dimension ({@code NAME[AXIS]} with NAME the parameter's op_name or
     * value name), else the first that varies, every other varying one following it.
     */
    private static Sized size(List<HloModule> modules, String dim) throws NotASeries {
        Map<Integer, String> names = new TreeMap<>();
        Map<Integer, Shape[]> shapes = new TreeMap<>();
        for (int k = 0; k < modules.size(); k++) {
            HloModule m = modules.get(k);
            for (BufferAllocation a : m.allocations()) {
                if (!a.isParameter() || a.parameterShape() == null || !a.parameterShape().isArray()) continue;
                shapes.computeIfAbsent(a.parameter(), p -> new Shape[modules.size()])[k] = a.parameterShape();
                if (k == 0) names.put(a.parameter(), parameterName(m, a));
            }
        }
        Map<String, long[]> varying = new LinkedHashMap<>();
        Map<String, String> aliases = new HashMap<>();
        for (Map.Entry<Integer, Shape[]> e : shapes.entrySet()) {
            Shape[] s = e.getValue();
            boolean everywhere = true;
            for (Shape x : s) everywhere &= x != null && x.rank() == s[0].rank();
            if (!everywhere) continue;
            for (int d = 0; d < s[0].rank(); d++) {
                long[] ns = new long[s.length];
                boolean varies = false;
                for (int k = 0; k < s.length; k++) {
                    ns[k] = s[k].dim(d);
                    varies |= ns[k] != ns[0];
                }
                String name = names.get(e.getKey()) + "[" + d + "]";
                if (varies) {
                    varying.put(name, ns);
                    aliases.put("parameter " + e.getKey() + "[" + d + "]", name);
                }
            }
        }
        if (varying.isEmpty()) throw new NotASeries("no entry parameter's shape differs between the loaded sizes", null);
        if (dim != null) {
            String want = dim.strip();
            String name = aliases.getOrDefault(want, want);
            if (varying.containsKey(name)) return new Sized(varying.get(name), name);
            List<String> same = varying.keySet().stream().filter(k -> k.substring(0, k.lastIndexOf('[')).equals(want)).toList();
            if (same.size() == 1) return new Sized(varying.get(same.get(0)), same.get(0));
            throw new NotASeries("no entry parameter dimension '" + want + "' varies across the loaded sizes; these do: "
                    + String.join(", ", varying.keySet()), null);
        }
        Map.Entry<String, long[]> first = varying.entrySet().iterator().next();
        for (Map.Entry<String, long[]> e : varying.entrySet())
            if (!ProgramSeries.affineOf(first.getValue(), e.getValue()))
                throw new NotASeries("two sizes vary independently: " + first.getKey() + " (" + Law.join(first.getValue()) + ") and "
                        + e.getKey() + " (" + Law.join(e.getValue()) + "); a forecast follows one, so load sizes along one of them", null);
        // Of the axes that vary together (a sequence and its quarter per chip), the one the values'
        // dimensions are: the one whose size in the first module the most bytes have as a dimension.
        Map.Entry<String, long[]> best = first;
        long bestBytes = -1;
        for (Map.Entry<String, long[]> e : varying.entrySet()) {
            long n = e.getValue()[0], bytes = 0;
            for (HloValue v : modules.get(0).values()) {
                if (v.shape() == null || !v.shape().isArray()) continue;
                for (int d = 0; d < v.shape().rank(); d++) if (v.shape().dim(d) == n) { bytes += v.size(); break; }
            }
            if (bytes > bestBytes) {
                best = e;
                bestBytes = bytes;
            }
        }
        return new Sized(best.getValue(), best.getKey());
    }

    /** An entry parameter's op_name (its pytree path, {@code batch['tokens']}), else its value's name. */
    private static String parameterName(HloModule m, BufferAllocation a) {
        for (HloValue v : m.values()) {
            if (v.allocation() != a.index()) continue;
            HloInstruction ins = m.instruction(v.name());
            if (ins != null && "parameter".equals(ins.opcode()))
                return ins.opName() != null && !ins.opName().isEmpty() ? ins.opName() : v.name();
        }
        return "parameter " + a.parameter();
    }
}
