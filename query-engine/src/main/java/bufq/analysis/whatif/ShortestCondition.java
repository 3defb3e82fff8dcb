package bufq.analysis.whatif;

import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;

import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A condition people can read for a set of values: the shortest one this finds that selects exactly
 * those values of the module ({@code category = "residuals" and live at peak}, {@code op_name ~
 * "/attention/" and shape = "f32[8,8,128,128]{3,2,1,0}"}), never a list of hundreds of ids. Terms are
 * tried from what the values have in common: {@code live at peak}, a field every one of them shares
 * (category, dtype, shape, kind, opcode, op_name, end_reason), a part of their op_names no other op_name
 * of the module holds, a least size; a few values the terms take too many are left out by id, and a
 * set that no conjunction holds is written as an {@code or} of a few. What it returns is run as a
 * query and must select exactly the set; otherwise the ids, which always do.
 */
public final class ShortestCondition {
    private final List<HloValue> values;
    private final Catalog catalog;
    private final EvalContext ctx;
    private final Map<Long, Integer> position = new HashMap<>();
    /** Each field's value per row, and each condition's rows, made once a module: a list asks for dozens of sets. */
    private final Map<String, Object[]> columns = new HashMap<>();
    private final Map<String, BitSet> selections = new HashMap<>();
    private String[] dims;

    private ShortestCondition(HloModule m, Catalog catalog, TilingModel tiling) {
        this.values = m.values();
        this.catalog = catalog;
        this.ctx = new EvalContext(m, tiling);
        for (int i = 0; i < values.size(); i++) position.put(values.get(i).id(), i);
    }

    /** A finder of conditions over the values of {@code m}, which keeps what it reads of them for the next set. */
    public static ShortestCondition over(HloModule m, Catalog catalog, TilingModel tiling) {
        return new ShortestCondition(m, catalog, tiling);
    }

    /** Fields whose shared value names a set, in the order a reader asks about memory. */
    static final List<String> FIELDS = List.of("category", "dtype", "kind", "opcode", "shape", "op_name", "end_reason",
            "idle_at_peak", "live_out", "allocation");

    /**
     * Most values of one field tried as exclusions ({@code opcode != "dot"}), those most values hold
     * first; only those that narrow the selection are written.
     */
    static final int EXCLUDED = 12;

    /** Longest term written: a longer {@code in} list or literal names nothing a reader takes in. */
    static final int TERM = 240;

    /** Most ids a condition spells out: to leave a few values out, or for a set too small to name otherwise. */
    public static final int FEW = 6;

    /** Most alternatives of an {@code or}. */
    static final int ALTERNATIVES = 4;

    /** Most values of one field written as {@code field in (...)}, within {@link #TERM} characters. */
    static final int IN_LIST = 8;

    private record Term(String text, BitSet rows) {}

    /**
     * The condition selecting exactly {@code selected} among the values of {@code m}.
     *
     * @throws QueryException a field's getter failed (a category rule of the user's)
     */
    public static String of(HloModule m, Collection<HloValue> selected, Catalog catalog, TilingModel tiling) throws QueryException {
        return over(m, catalog, tiling).of(selected);
    }

    /**
     * The condition selecting exactly {@code selected} among the module's values.
     *
     * @throws QueryException a field's getter failed (a category rule of the user's)
     */
    public String of(Collection<HloValue> selected) throws QueryException {
        if (selected.size() <= 2) return byId(selected);
        BitSet target = new BitSet(values.size());
        for (HloValue v : selected) {
            Integer p = position.get(v.id());
            if (p == null) return byId(selected);
            target.set(p);
        }
        List<Term> terms = terms(target);
        String found = cover(values, target, terms);
        if (found == null) found = alternatives(target);
        if (found != null && selects(found, target)) return found;
        return byId(selected);
    }

    /** {@code id = N} or {@code id in (...)}: what selects exactly these values whatever else the module holds. */
    public static String byId(Collection<HloValue> vs) {
        List<String> ids = vs.stream().map(v -> Long.toString(v.id())).toList();
        return ids.size() == 1 ? "id = " + ids.get(0) : "id in (" + String.join(", ", ids) + ")";
    }

    /** The terms that hold for every value of {@code target}, each with the rows it selects. */
    private List<Term> terms(BitSet target) throws QueryException {
        List<Term> out = new ArrayList<>();
        BitSet live = select("live at peak");
        if (live != null && contains(live, target)) out.add(new Term("live at peak", live));
        else {
            // a step every one of them is live at: the latest start, when no range ends before it
            long start = Long.MIN_VALUE, end = Long.MAX_VALUE;
            for (int i = target.nextSetBit(0); i >= 0; i = target.nextSetBit(i + 1)) {
                HloValue v = values.get(i);
                if (!v.hasRange()) { start = Long.MAX_VALUE; break; }
                start = Math.max(start, v.rangeStart());
                end = Math.min(end, v.rangeEnd());
            }
            BitSet at = start <= end ? select("live at " + start) : null;
            if (at != null && contains(at, target)) out.add(new Term("live at " + start, at));
        }
        for (String f : FIELDS) {
            Object[] col = column(f);
            if (col == null) continue;
            Set<Object> shared = new LinkedHashSet<>();
            for (int i = target.nextSetBit(0); i >= 0 && shared.size() <= IN_LIST; i = target.nextSetBit(i + 1)) shared.add(col[i]);
            if (shared.size() == 1 && shared.iterator().next() instanceof Boolean b) {
                BitSet rows = new BitSet(values.size());
                for (int i = 0; i < col.length; i++) if (b.equals(col[i])) rows.set(i);
                out.add(new Term(b ? f : "not " + f, rows));
                continue;
            }
            List<String> quoted = shared.stream().map(x -> x == null ? null : literal(x)).toList();
            if (!shared.contains(null) && shared.size() <= IN_LIST && String.join(", ", quoted).length() <= TERM) {
                BitSet rows = new BitSet(values.size());
                for (int i = 0; i < col.length; i++) if (col[i] != null && shared.contains(col[i])) rows.set(i);
                out.add(new Term(quoted.size() == 1 ? f + " = " + quoted.get(0) : f + " in (" + String.join(", ", quoted) + ")", rows));
            }
            out.addAll(unlike(f, col, target));
        }
        Object[] ops = column("op_name");
        if (ops != null) out.addAll(segments(ops, target));
        Object[] shapes = column("shape");
        if (shapes != null) {
            out.addAll(leading(shapes, target));
            out.addAll(dims(target));
        }
        long least = Long.MAX_VALUE;
        for (int i = target.nextSetBit(0); i >= 0; i = target.nextSetBit(i + 1)) least = Math.min(least, values.get(i).size());
        if (least > 0 && least < Long.MAX_VALUE) {
            BitSet rows = new BitSet(values.size());
            for (int i = 0; i < values.size(); i++) if (values.get(i).size() >= least) rows.set(i);
            out.add(new Term("size >= " + size(least), rows));
        }
        return out;
    }

    /**
     * {@code field != VALUE} for the values of the field no target row holds, those most rows hold
     * first; {@code not field = VALUE} where a target row has no value (a comparison with null is
     * false, and {@code not} turns it true, so those rows stay selected).
     */
    private static List<Term> unlike(String f, Object[] col, BitSet target) {
        Set<Object> held = new HashSet<>();
        boolean nulls = false;
        for (int i = target.nextSetBit(0); i >= 0; i = target.nextSetBit(i + 1)) {
            if (col[i] instanceof Boolean) return List.of();
            if (col[i] == null) nulls = true;
            else held.add(col[i]);
        }
        Map<Object, Integer> others = new HashMap<>();
        for (Object x : col) if (x != null && !held.contains(x)) others.merge(x, 1, Integer::sum);
        List<Term> out = new ArrayList<>();
        boolean keepNulls = nulls;
        others.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(EXCLUDED).forEach(e -> {
            BitSet rows = new BitSet(col.length);
            for (int i = 0; i < col.length; i++) {
                if (col[i] == null ? keepNulls : !col[i].equals(e.getKey())) rows.set(i);
            }
            String lit = literal(e.getKey());
            if (lit.length() > TERM) return;
            out.add(new Term(keepNulls ? "not " + f + " = " + lit : f + " != " + lit, rows));
        });
        return out;
    }

    /** A value as the query language writes it: numbers bare, text quoted. */
    private static String literal(Object x) {
        return x instanceof Number ? String.valueOf(x) : quote(String.valueOf(x));
    }

    /**
     * {@code shape ~ "^f32\[8,"}: the element type and leading dimension every target shape starts with
     * (what a chunk along the leading axis selects), where they share one.
     */
    private static List<Term> leading(Object[] shapes, BitSet target) {
        String prefix = null;
        for (int i = target.nextSetBit(0); i >= 0; i = target.nextSetBit(i + 1)) {
            if (!(shapes[i] instanceof String s)) return List.of();
            int open = s.indexOf('['), end = open < 0 ? -1 : indexOfAny(s, open);
            if (end < 0) return List.of();
            String p = s.substring(0, end + 1);
            if (prefix == null) prefix = p;
            else if (!prefix.equals(p)) return List.of();
        }
        if (prefix == null || !prefix.matches("[a-z0-9]+\\[[0-9]+[,\\]]")) return List.of();
        BitSet rows = new BitSet(shapes.length);
        for (int i = 0; i < shapes.length; i++) if (shapes[i] instanceof String s && s.startsWith(prefix)) rows.set(i);
        return List.of(new Term("shape ~ \"^" + prefix.replace("[", "\\[").replace("]", "\\]") + "\"", rows));
    }

    /**
     * {@code shape ~ "^[a-z0-9]+\[(32,16,1024,1024|32,1024,1024)\]"}: the dimensions the target's
     * arrays have, whatever their element type and layout (an f32 array and its bf16 twin, a tiled
     * and an untiled copy), where they have at most {@link #IN_LIST} of them.
     */
    private List<Term> dims(BitSet target) {
        if (this.dims == null) {
            this.dims = new String[values.size()];
            for (int i = 0; i < values.size(); i++) this.dims[i] = dimsOf(values.get(i));
        }
        Set<String> dims = new LinkedHashSet<>();
        for (int i = target.nextSetBit(0); i >= 0; i = target.nextSetBit(i + 1)) {
            String d = this.dims[i];
            if (d == null) return List.of();
            dims.add(d);
            if (dims.size() > IN_LIST) return List.of();
        }
        if (dims.isEmpty()) return List.of();
        String alternatives = dims.size() == 1 ? dims.iterator().next() : "(" + String.join("|", dims) + ")";
        if (alternatives.length() > TERM) return List.of();
        BitSet rows = new BitSet(values.size());
        for (int i = 0; i < values.size(); i++) if (dims.contains(this.dims[i])) rows.set(i);
        return List.of(new Term("shape ~ \"^[a-z0-9]+\\[" + alternatives + "\\]\"", rows));
    }

    /** An array's dimensions as its shape text writes them ({@code 32,1024,1024}); null for a tuple or no shape. */
    private static String dimsOf(HloValue v) {
        if (v.shape() == null || !v.shape().isArray()) return null;
        StringBuilder b = new StringBuilder();
        for (long d : v.shape().dims()) b.append(b.length() == 0 ? "" : ",").append(d);
        return b.toString();
    }

    private static int indexOfAny(String s, int from) {
        for (int i = from + 1; i < s.length(); i++) if (s.charAt(i) == ',' || s.charAt(i) == ']') return i;
        return -1;
    }

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_]+");

    /**
     * {@code op_name ~ "/PART/"} for each part (between slashes) that every op_name of the target holds,
     * as a whole part; only plain words, so the pattern needs no escapes.
     */
    private static List<Term> segments(Object[] ops, BitSet target) {
        Set<String> common = null;
        for (int i = target.nextSetBit(0); i >= 0; i = target.nextSetBit(i + 1)) {
            if (!(ops[i] instanceof String s)) return List.of();
            Set<String> parts = new HashSet<>(List.of(s.split("/")));
            if (common == null) common = parts;
            else common.retainAll(parts);
        }
        List<Term> out = new ArrayList<>();
        if (common == null) return out;
        for (String part : common) {
            if (!PLAIN.matcher(part).matches()) continue;
            String needle = "/" + part + "/";
            BitSet rows = new BitSet(ops.length);
            // a part that ends an op_name is not "/part/" there (op_name = ... names those)
            for (int i = 0; i < ops.length; i++) if (ops[i] instanceof String s && s.contains(needle)) rows.set(i);
            if (contains(rows, target)) out.add(new Term("op_name ~ \"" + needle + "\"", rows));
        }
        out.sort((a, b) -> a.text().compareTo(b.text()));
        return out;
    }

    /**
     * Terms joined by {@code and}, chosen greedily (each the one that leaves fewest rows), then
     * the ones the others make redundant dropped; a few rows too many are left out by id. Null
     * when no such conjunction selects {@code target}.
     */
    private static String cover(List<HloValue> values, BitSet target, List<Term> terms) {
        BitSet cur = new BitSet(values.size());
        cur.set(0, values.size());
        List<Term> chosen = new ArrayList<>();
        while (cur.cardinality() > target.cardinality()) {
            Term best = null;
            int bestCount = cur.cardinality();
            for (Term t : terms) {
                BitSet x = (BitSet) cur.clone();
                x.and(t.rows());
                int n = x.cardinality();
                if (n < bestCount || n == bestCount && best != null && t.text().length() < best.text().length() && n < cur.cardinality()) {
                    best = t;
                    bestCount = n;
                }
            }
            if (best == null) break;
            chosen.add(best);
            cur.and(best.rows());
        }
        // drop what the others already imply, the longest first
        List<Term> order = new ArrayList<>(chosen);
        order.sort((a, b) -> b.text().length() - a.text().length());
        for (Term t : order) {
            if (chosen.size() == 1) break;
            List<Term> without = new ArrayList<>(chosen);
            without.remove(t);
            if (and(values.size(), without).equals(cur)) chosen = without;
        }
        BitSet extra = (BitSet) cur.clone();
        extra.andNot(target);
        if (extra.cardinality() > FEW) return null;
        List<String> parts = new ArrayList<>();
        for (Term t : chosen) parts.add(t.text());
        if (!extra.isEmpty()) {
            List<HloValue> out = new ArrayList<>();
            for (int i = extra.nextSetBit(0); i >= 0; i = extra.nextSetBit(i + 1)) out.add(values.get(i));
            List<String> ids = out.stream().map(v -> Long.toString(v.id())).toList();
            parts.add(ids.size() == 1 ? "id != " + ids.get(0) : "id not in (" + String.join(", ", ids) + ")");
        }
        return parts.isEmpty() ? null : String.join(" and ", parts);
    }

    /**
     * The target split by the field that parts it into fewest groups (at most {@link #ALTERNATIVES}),
     * each group named by its own conjunction, joined by {@code or}; null when no field does.
     */
    private String alternatives(BitSet target) throws QueryException {
        String best = null;
        BitSet live = select("live at peak");
        for (String f : List.of("live at peak", "category", "op_name", "shape", "opcode")) {
            boolean field = !f.startsWith("live ");
            Object[] col = field ? column(f) : null;
            if (field ? col == null : live == null) continue;
            Map<Object, BitSet> groups = new LinkedHashMap<>();
            for (int i = target.nextSetBit(0); i >= 0; i = target.nextSetBit(i + 1)) {
                Object key = field ? col[i] : live.get(i);
                groups.computeIfAbsent(key, k -> new BitSet()).set(i);
                if (groups.size() > ALTERNATIVES) break;
            }
            if (groups.size() < 2 || groups.size() > ALTERNATIVES) continue;
            List<String> parts = new ArrayList<>();
            for (BitSet g : groups.values()) {
                String c = g.cardinality() <= 2 ? null : cover(values, g, terms(g));
                if (c == null) {
                    List<HloValue> vs = new ArrayList<>();
                    for (int i = g.nextSetBit(0); i >= 0; i = g.nextSetBit(i + 1)) vs.add(values.get(i));
                    if (vs.size() > FEW) { parts = null; break; }
                    c = byId(vs);
                }
                parts.add(c.contains(" and ") ? "(" + c + ")" : c);
            }
            if (parts == null) continue;
            String text = String.join(" or ", parts);
            if (best == null || text.length() < best.length()) best = text;
        }
        return best;
    }

    private static BitSet and(int n, List<Term> terms) {
        BitSet cur = new BitSet(n);
        cur.set(0, n);
        for (Term t : terms) cur.and(t.rows());
        return cur;
    }

    private static boolean contains(BitSet outer, BitSet inner) {
        BitSet x = (BitSet) inner.clone();
        x.andNot(outer);
        return x.isEmpty();
    }

    /** Each value's {@code f}, null when the catalog has no such field. */
    private Object[] column(String f) throws QueryException {
        if (catalog.field("values", f) == null) return null;
        Object[] col = columns.get(f);
        if (col == null) {
            col = new Object[values.size()];
            for (int i = 0; i < values.size(); i++) col[i] = catalog.value("values", f, values.get(i), ctx);
            columns.put(f, col);
        }
        return col;
    }

    /** The rows {@code values where CONDITION} selects, null when the module cannot answer it. */
    private BitSet select(String condition) {
        if (selections.containsKey(condition)) return selections.get(condition);
        BitSet rows = query(condition);
        selections.put(condition, rows);
        return rows;
    }

    private BitSet query(String condition) {
        try {
            List<Object> rows = Query.compile("values where " + condition, catalog).select(ctx);
            BitSet out = new BitSet(values.size());
            for (Object r : rows) {
                Integer p = position.get(((HloValue) r).id());
                if (p != null) out.set(p);
            }
            return out;
        } catch (QueryException | RuntimeException e) {
            return null;
        }
    }

    /** Whether the query engine, running {@code condition}, selects exactly {@code target}. */
    private boolean selects(String condition, BitSet target) {
        BitSet got = query(condition);
        return got != null && got.equals(target);
    }

    /** A string literal of the query language. */
    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A size as one types it: whole KiB, MiB or GiB where exact, else bytes. */
    static String size(long bytes) {
        for (String[] u : new String[][] {{"GiB", "30"}, {"MiB", "20"}, {"KiB", "10"}}) {
            long unit = 1L << Integer.parseInt(u[1]);
            if (bytes % unit == 0) return String.format(Locale.ROOT, "%d%s", bytes / unit, u[0]);
        }
        return Long.toString(bytes);
    }
}
