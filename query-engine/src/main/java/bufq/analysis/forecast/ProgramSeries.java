package bufq.analysis.forecast;

import bufq.analysis.diff.MatchKey;
import bufq.analysis.diff.ModuleDiff;
import bufq.analysis.diff.ValueRole;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.MemorySpace;
import bufq.model.Shape;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One program compiled at several sizes, its values paired across the modules and each value's
 * shape fitted as a {@link Law} of the size. Values pair on {@code diff}'s keys ({@link MatchKey}:
 * op_name, source line, role) with the shape reduced to what a size leaves alone (element type,
 * rank, layout, tuple index); equal keys pair in schedule order, as {@code diff} pairs them.
 * Built once; refuses with {@link NotASeries} when the modules are no series.
 *
 * @param modules   the loaded sizes, in the order of {@code ns}
 * @param ns        the size of each module along {@code dimension}
 * @param dimension the dimension that varies, as {@code NAME[AXIS]}
 * @param pos       {@code pos[k][i]}: the position in module {@code k} of the value paired with module 0's value {@code i}
 * @param laws      per value of module 0, its law
 * @param byModule  per module, per value, its law, where the modules are paired per memory space
 *                  ({@link SpaceSeries}); null when every value paired
 * @param unpaired  what did not pair then, by memory space (held at their size); null when every value paired
 */
record ProgramSeries(List<HloModule> modules, long[] ns, String dimension, int[][] pos, Law[] laws, Law[][] byModule,
                     Table unpaired) {
    ProgramSeries(List<HloModule> modules, long[] ns, String dimension, int[][] pos, Law[] laws) {
        this(modules, ns, dimension, pos, laws, null, null);
    }

    /** Values listed in a refusal; the rest are counted. */
    static final int LISTED = 12;

    /** Per value of module {@code k} (in its order), its law. */
    Law[] lawsOf(int k) {
        if (byModule != null) return byModule[k];
        Law[] out = new Law[modules.get(k).values().size()];
        int[] p = pos[k];
        for (int i = 0; i < p.length; i++) out[p[i]] = laws[i];
        return out;
    }

    /** The series of {@code modules}, every value paired across them. */
    static ProgramSeries of(List<HloModule> modules, String dim) throws NotASeries {
        return strict(modules, dim);
    }

    /** Whether a strict refusal may be retried per memory space: one program, with live ranges and several spaces. */
    static boolean pairsBySpace(List<HloModule> modules) {
        if (modules.size() < 2 || !modules.stream().allMatch(MemorySpace::several)) return false;
        for (HloModule m : modules) if (!m.info().name().equals(modules.get(0).info().name()) || m.steps() == 0) return false;
        return true;
    }

    private static ProgramSeries strict(List<HloModule> modules, String dim) throws NotASeries {
        if (modules.size() < 2) throw new NotASeries("a forecast needs one program loaded at two sizes or more; "
                + (modules.isEmpty() ? "none is loaded" : "only " + modules.get(0).handle() + " is loaded"), null);
        String name = modules.get(0).info().name();
        for (HloModule m : modules) {
            if (!m.info().name().equals(name))
                throw new NotASeries("different programs: " + modules.get(0).handle() + " is " + name + ", " + m.handle()
                        + " is " + m.info().name() + "; a series is one program at several sizes", null);
            if (m.steps() == 0) throw new NotASeries(m.handle() + " has no live ranges, so no peak to forecast", null);
        }
        int[][] pos = pair(modules);
        for (HloModule m : modules) {
            if (m.steps() != modules.get(0).steps())
                throw new NotASeries("not one program at several sizes: the schedules differ in structure (" + modules.get(0).handle()
                        + " has " + modules.get(0).steps() + " steps, " + m.handle() + " " + m.steps() + ")", null);
        }
        Sized sized = size(modules, pos, dim);
        // sort the modules by size, keeping the pairing with them
        Integer[] order = new Integer[modules.size()];
        for (int k = 0; k < order.length; k++) order[k] = k;
        Arrays.sort(order, Comparator.comparingLong(k -> sized.ns[k]));
        List<HloModule> ms = new ArrayList<>();
        long[] ns = new long[order.length];
        int[][] p = new int[order.length][];
        for (int k = 0; k < order.length; k++) {
            ms.add(modules.get(order[k]));
            ns[k] = sized.ns[order[k]];
            p[k] = pos[order[k]];
        }
        for (int k = 1; k < ns.length; k++)
            if (ns[k] == ns[k - 1]) throw new NotASeries(ms.get(k - 1).handle() + " and " + ms.get(k).handle()
                    + " have the same size (" + sized.dimension + " = " + ns[k] + "); a series needs each size once", null);
        return new ProgramSeries(List.copyOf(ms), ns, sized.dimension, p, fit(ms, ns, p));
    }

    /** The values of every module paired with module 0's; refuses naming the keys whose counts differ. */
    private static int[][] pair(List<HloModule> modules) throws NotASeries {
        List<Map<MatchKey, List<Integer>>> groups = new ArrayList<>();
        for (HloModule m : modules) groups.add(groups(m));
        Table.Builder t = Table.builder().key("values_that_did_not_pair").title("values that did not pair")
                .column("op_name", ColumnType.STRING).column("role", ColumnType.STRING).column("kind", ColumnType.STRING);
        for (HloModule m : modules) t.column(m.handle(), ColumnType.INT);
        t.column("why", ColumnType.STRING);
        int bad = 0;
        LinkedHashSet<MatchKey> keys = new LinkedHashSet<>();
        for (Map<MatchKey, List<Integer>> g : groups) keys.addAll(g.keySet());
        for (MatchKey key : keys) {
            List<Object> row = new ArrayList<>(List.of(key.opGroup(), key.role().word(), key.shape()));
            boolean same = true;
            for (Map<MatchKey, List<Integer>> g : groups) {
                int c = g.getOrDefault(key, List.of()).size();
                row.add((long) c);
                same &= c == groups.get(0).getOrDefault(key, List.of()).size();
            }
            if (same) continue;
            row.add("counts differ: different programs, or compiled differently");
            if (bad++ < LISTED) t.row(row);
        }
        if (bad > 0) {
            if (bad > LISTED) t.note((bad - LISTED) + " more keys");
            t.note("values pair on diff's keys: op_name, source line and role, with the element type, rank and layout of their shape");
            throw new NotASeries("not one program at several sizes: " + bad + " value key" + (bad == 1 ? "" : "s")
                    + " did not pair (see the table)", t.build());
        }
        int n = modules.get(0).values().size();
        int[][] pos = new int[modules.size()][n];
        for (MatchKey key : groups.get(0).keySet()) {
            List<Integer> first = groups.get(0).get(key);
            for (int k = 0; k < modules.size(); k++) {
                List<Integer> mine = groups.get(k).get(key);
                for (int j = 0; j < first.size(); j++) pos[k][first.get(j)] = mine.get(j);
            }
        }
        return pos;
    }

    /** Positions of each key's values in schedule order (range start, then id), as {@code diff} orders them. */
    static Map<MatchKey, List<Integer>> groups(HloModule m) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < m.values().size(); i++) order.add(i);
        List<HloValue> vs = m.values();
        order.sort(Comparator.comparingInt((Integer i) -> vs.get(i).hasRange() ? vs.get(i).rangeStart() : Integer.MAX_VALUE)
                .thenComparingLong(i -> vs.get(i).id()));
        Map<MatchKey, List<Integer>> out = new LinkedHashMap<>();
        for (int i : order) out.computeIfAbsent(key(m, vs.get(i)), k -> new ArrayList<>()).add(i);
        return out;
    }

    /** {@code diff}'s key with the shape reduced to what a size leaves alone. */
    static MatchKey key(HloModule m, HloValue v) {
        MatchKey k = ModuleDiff.keyOf(m, v);
        Shape s = v.shape();
        String kind = s == null ? "?" : s.isTuple() ? "tuple of " + s.tupleElements().size() : s.isArray()
                ? s.dtype() + " rank " + s.rank() + (s.layoutText().isEmpty() ? "" : " {" + s.layoutText() + "}") : s.dtype();
        return new MatchKey(k.opGroup(), k.source(), kind + (v.indexPrinted() ? " at " + v.index() : ""), k.role());
    }

    private record Sized(long[] ns, String dimension) {}

    /**
     * The size of each module: the named dimension of an entry parameter ({@code NAME[AXIS]}, or
     * {@code NAME} when one of its axes varies), else the one that varies. Refuses when none does,
     * or when two vary independently.
     */
    private static Sized size(List<HloModule> modules, int[][] pos, String dim) throws NotASeries {
        HloModule m0 = modules.get(0);
        Map<String, long[]> varying = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < m0.values().size(); i++) {
            HloValue v = m0.values().get(i);
            BufferAllocation a = m0.allocation(v.allocation());
            if (a == null || !a.isParameter() || ValueRole.of(m0, v) != ValueRole.PARAMETER || v.shape() == null || !v.shape().isArray()) continue;
            names.add(v.name());
            for (int d = 0; d < v.shape().rank(); d++) {
                long[] ns = new long[modules.size()];
                boolean varies = false;
                for (int k = 0; k < ns.length; k++) {
                    ns[k] = modules.get(k).values().get(pos[k][i]).shape().dim(d);
                    varies |= ns[k] != ns[0];
                }
                if (varies) varying.put(v.name() + "[" + d + "]", ns);
            }
        }
        if (dim != null) {
            String want = dim.strip();
            for (Map.Entry<String, long[]> e : varying.entrySet()) {
                String k = e.getKey(), base = k.substring(0, k.indexOf('['));
                if (k.equals(want) || stem(k).equals(want)) return new Sized(e.getValue(), k);
            }
            List<String> same = varying.keySet().stream().filter(k -> {
                String base = k.substring(0, k.indexOf('['));
                return base.equals(want) || stem(base).equals(want);
            }).toList();
            if (same.size() == 1) return new Sized(varying.get(same.get(0)), same.get(0));
            if (same.size() > 1) throw new NotASeries("'" + want + "' has several axes that vary (" + String.join(", ", same)
                    + "); name one, e.g. " + same.get(0), null);
            throw new NotASeries("no entry parameter dimension '" + want + "' varies across the loaded sizes; "
                    + (varying.isEmpty() ? "none does" : "these do: " + String.join(", ", varying.keySet()))
                    + " (parameters: " + String.join(", ", names.subList(0, Math.min(8, names.size()))) + (names.size() > 8 ? ", ..." : "") + ")", null);
        }
        if (varying.isEmpty()) throw new NotASeries("no entry parameter's shape differs between " + handles(modules)
                + ": the same size twice, or the size that changed is not an input's", null);
        // every varying axis must follow the first one (a batch in two inputs, a sequence and its half)
        Map.Entry<String, long[]> first = varying.entrySet().iterator().next();
        for (Map.Entry<String, long[]> e : varying.entrySet()) {
            if (!affineOf(first.getValue(), e.getValue()))
                throw new NotASeries("two sizes vary independently: " + first.getKey() + " (" + Law.join(first.getValue()) + ") and "
                        + e.getKey() + " (" + Law.join(e.getValue()) + "); a forecast follows one, so load sizes along one of them", null);
        }
        return new Sized(first.getValue(), first.getKey());
    }

    /** {@code x.1[0]} to {@code x[0]}: the parameter's name without XLA's numbering. */
    static String stem(String k) {
        int b = k.indexOf('[');
        String base = b < 0 ? k : k.substring(0, b), rest = b < 0 ? "" : k.substring(b);
        return base.replaceFirst("\\.\\d+$", "") + rest;
    }

    /** Whether {@code y} is an affine function of {@code x} (the same for equal x, on one line). */
    static boolean affineOf(long[] x, long[] y) {
        int a = 0, b = -1;
        for (int k = 1; k < x.length; k++) if (x[k] != x[a]) { b = k; break; }
        if (b < 0) return false;
        for (int k = 0; k < x.length; k++) {
            // (y_k - y_a)(x_b - x_a) == (y_b - y_a)(x_k - x_a)
            if (Math.multiplyExact(y[k] - y[a], x[b] - x[a]) != Math.multiplyExact(y[b] - y[a], x[k] - x[a])) return false;
        }
        return true;
    }

    private static Law[] fit(List<HloModule> ms, long[] ns, int[][] pos) throws NotASeries {
        HloModule m0 = ms.get(0);
        Law[] laws = new Law[m0.values().size()];
        Table.Builder t = Table.builder().key("values_whose_shape_does_not_follow_the_size").title("values whose shape does not follow the size")
                .column("value", ColumnType.STRING).column("shapes", ColumnType.LIST).column("why", ColumnType.STRING);
        int bad = 0;
        for (int i = 0; i < laws.length; i++) {
            HloValue v = m0.values().get(i);
            Shape[] shapes = new Shape[ms.size()];
            long[] sizes = new long[ms.size()];
            boolean arrays = true;
            for (int k = 0; k < ms.size(); k++) {
                HloValue w = ms.get(k).values().get(pos[k][i]);
                shapes[k] = w.shape();
                sizes[k] = w.size();
                arrays &= w.shape() != null && w.shape().isArray() && w.shape().rank() == v.shape().rank();
            }
            String[] why = new String[1];
            if (arrays) {
                laws[i] = Law.fit(shapes, sizes, ns, why);
            } else {
                boolean same = true;
                for (long s : sizes) same &= s == sizes[0];
                laws[i] = same ? Law.constant(v.shape(), sizes[0]) : null;
                if (!same) why[0] = v.shape() != null && v.shape().isArray()
                        ? "its rank or kind changes between the sizes, so no law follows its dimensions"
                        : "its size changes (" + Law.join(sizes) + " B) but it is no array whose shape says how";
            }
            if (laws[i] != null) continue;
            if (bad++ < LISTED) {
                List<Object> texts = new ArrayList<>();
                for (Shape s : shapes) texts.add(s == null ? "?" : s.text());
                t.row(v.label(), texts, why[0]);
            }
        }
        if (bad > 0) {
            if (bad > LISTED) t.note((bad - LISTED) + " more values");
            throw new NotASeries(bad + " value" + (bad == 1 ? "" : "s") + " do not follow the size, so no forecast"
                    + " (a bad fit gives no number)", t.build());
        }
        return laws;
    }

    private static String handles(List<HloModule> ms) {
        return String.join(", ", ms.stream().map(HloModule::handle).toList());
    }

    /** The variable the laws are written in. */
    static final String VAR = "N";

    /** The smallest step between sizes at which every shape is whole. */
    long period() {
        long p = 1;
        for (Law l : laws) {
            long q = l.period();
            p = Math.multiplyExact(p / Law.gcd(p, q), q);
        }
        return p;
    }

    String describe() {
        return dimension + " = " + Law.join(ns).replace(", ", "/") + " in " + handles(modules).toLowerCase(Locale.ROOT);
    }
}
