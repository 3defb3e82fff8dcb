package bufq.shell.script;

import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.FieldInfo;
import bufq.eval.Step;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.api.Reports;
import bufq.model.Shape;
import bufq.table.Table;
import org.graalvm.polyglot.proxy.ProxyArray;
import org.graalvm.polyglot.proxy.ProxyExecutable;
import org.graalvm.polyglot.proxy.ProxyObject;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Read-only JavaScript views of the model. Rows answer with the query language's fields (including
 * fields scripts added), computed when read: nothing is converted up front.
 */
final class Rows {
    private Rows() {}

    /** Something a check can name in a finding. */
    interface Subject {
        String subject();
    }

    /** One value, allocation, instruction or step with the fields of its entity. */
    static final class Row extends Convert.ReadOnly implements Subject {
        final String entity;
        final Object row;
        private final Catalog catalog;
        private final EvalContext ctx;
        /** Members JavaScript itself may probe on an object (conversions, promises): not a script's typo. */
        private static final Set<String> PROBES = Set.of("toString", "valueOf", "toJSON", "then", "constructor",
                "length", "prototype", "__proto__", "inspect");
        /** The first property read that this row's entity lacks (a script's typo), or null. */
        private String missing;

        Row(String entity, Object row, Catalog catalog, EvalContext ctx) {
            this.entity = entity;
            this.row = row;
            this.catalog = catalog;
            this.ctx = ctx;
        }

        @Override public Object getMember(String key) {
            if (catalog.field(entity, key) == null) {
                lacks(key);
                return null;
            }
            return Convert.toJs(catalog.value(entity, key, row, ctx));
        }

        private void lacks(String key) {
            if (missing == null && !PROBES.contains(key)) missing = key;
        }

        /** The first property a script read that this row does not have, or null. */
        String missing() { return missing; }

        @Override public Object getMemberKeys() {
            List<FieldInfo> fs = catalog.fields(entity);
            return ProxyArray.fromArray(fs.stream().map(FieldInfo::name).toArray());
        }

        @Override public boolean hasMember(String key) {
            if (catalog.field(entity, key) != null) return true;
            lacks(key);
            return false;
        }

        @Override public String subject() {
            if (row instanceof HloValue v) return v.label();
            if (row instanceof BufferAllocation a) return "allocation " + a.index();
            if (row instanceof HloInstruction i) return i.name();
            if (row instanceof Step s) return "step " + s.time();
            return String.valueOf(row);
        }
    }

    /** A row of a query result: its columns by name. */
    static final class ResultRow extends Convert.ReadOnly implements Subject {
        private final Map<String, Object> cells;

        ResultRow(Table t, int r) {
            cells = new LinkedHashMap<>();
            for (int c = 0; c < t.width(); c++) cells.put(t.columns().get(c).name(), t.cell(r, c));
        }

        @Override public Object getMember(String key) { return Convert.toJs(cells.get(key)); }
        @Override public Object getMemberKeys() { return ProxyArray.fromArray(cells.keySet().toArray()); }
        @Override public boolean hasMember(String key) { return cells.containsKey(key); }

        @Override public String subject() {
            for (String k : List.of("label", "name", "instruction", "index", "id", "time"))
                if (cells.get(k) != null) return (k.equals("index") ? "allocation " : k.equals("time") ? "step " : "") + cells.get(k);
            return cells.toString();
        }
    }

    /** {@code bufq.module}: the entity arrays, the peak and lookups by id, index and name. */
    static final class ModuleView extends Convert.ReadOnly {
        private static final List<String> KEYS = ApiKeys.MODULE;
        private final Catalog catalog;
        private final EvalContext ctx;
        private final Map<String, List<?>> rows = new LinkedHashMap<>();
        private final BiFunction<String, HloModule, Object> query;
        private final String note;

        /** @param query runs a query on a module and returns the rows as a script sees them */
        ModuleView(Catalog catalog, EvalContext ctx, BiFunction<String, HloModule, Object> query) {
            this(catalog, ctx, query, null);
        }

        /** @param note what the figures are ({@code bufq.whatif}'s: a bound under the current schedule); null for a loaded module */
        ModuleView(Catalog catalog, EvalContext ctx, BiFunction<String, HloModule, Object> query, String note) {
            this.catalog = catalog;
            this.ctx = ctx;
            this.query = query;
            this.note = note;
        }

        HloModule module() { return ctx.module(); }

        private Object entityArray(String entity) {
            List<?> list = rows.computeIfAbsent(entity, e -> catalog.rows(e, ctx));
            return new Convert.ReadOnlyArray(list.size(), i -> new Row(entity, list.get(i), catalog, ctx));
        }

        private Object row(String entity, Object r) { return r == null ? null : new Row(entity, r, catalog, ctx); }

        @Override public Object getMember(String key) {
            HloModule m = ctx.module();
            return switch (key) {
                case "handle" -> m.handle();
                case "name" -> m.info().name();
                case "backend" -> m.info().backend();
                case "values", "allocations", "instructions", "steps" -> entityArray(key);
                case "peak" -> {
                    Reports.PeakStep peak = Reports.peakStep(m);
                    if (peak == null) yield null;
                    Map<String, Object> p = new LinkedHashMap<>();
                    p.put("time", (long) peak.time());
                    p.put("bytes", peak.bytes());
                    p.put("live_bytes", peak.liveBytes());
                    p.put("claimed_time", peak.claimedTime() < 0 ? null : (long) peak.claimedTime());
                    yield new Convert.ReadOnlyMap(p);
                }
                case "value" -> (ProxyExecutable) a -> row("values", m.value(JsArgs.whole(a, 0, "bufq.module.value(id)")));
                case "allocation" -> (ProxyExecutable) a -> row("allocations",
                        m.allocation((int) JsArgs.whole(a, 0, "bufq.module.allocation(index)")));
                case "instruction" -> (ProxyExecutable) a -> row("instructions",
                        m.instruction(JsArgs.string(a, 0, "bufq.module.instruction(name)")));
                case "query" -> (ProxyExecutable) a -> query.apply(JsArgs.string(a, 0, "module.query(text)"), m);
                case "note" -> note;
                default -> null;
            };
        }

        @Override public Object getMemberKeys() { return ProxyArray.fromArray(KEYS.toArray()); }
        @Override public boolean hasMember(String key) { return KEYS.contains(key); }

        @Override public String toString() {
            HloModule m = ctx.module();
            return "{handle: " + Convert.show(m.handle()) + ", name: " + Convert.show(m.info().name()) + ", backend: "
                    + Convert.show(m.info().backend()) + ", values: [" + m.values().size() + " rows], allocations: ["
                    + m.allocations().size() + " rows], instructions: [" + m.instructions().size() + " rows], steps: ["
                    + m.steps() + " rows], peak: " + getMember("peak") + ", value(id), allocation(index), instruction(name), query(text)}";
        }
    }

    /** What a tiling function receives: the parsed parts of an array shape. */
    static ProxyObject shape(Shape s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("text", s.text());
        m.put("dtype", s.dtype());
        long[] dims = s.dims();
        m.put("dims", new Convert.ReadOnlyArray(dims.length, i -> dims[i]));
        int[] m2m = s.minorToMajor();
        m.put("minor_to_major", m2m == null ? null : new Convert.ReadOnlyArray(m2m.length, i -> (long) m2m[i]));
        List<long[]> tiles = s.tiles();
        m.put("tiles", new Convert.ReadOnlyArray(tiles.size(), i -> {
            long[] t = tiles.get(i);
            return new Convert.ReadOnlyArray(t.length, j -> t[j]);
        }));
        m.put("element_bits", (long) s.bitsPerElement());
        m.put("element_size_bits", (long) s.elementSizeBits());
        m.put("memory_space", (long) s.memorySpace());
        m.put("logical_bytes", s.logicalBytes());
        return new Convert.ReadOnlyMap(m);
    }

    /**
     * What a tiling function receives second: where the value is held, for rules that the shape
     * alone does not give (on TPU, an untiled array outside SMEM takes runs of 1024 elements: {@code u32[]}, 4 KiB).
     */
    static ProxyObject place(String backend, boolean threadLocal) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", backend);
        m.put("thread_local", threadLocal);
        return new Convert.ReadOnlyMap(m);
    }
}
