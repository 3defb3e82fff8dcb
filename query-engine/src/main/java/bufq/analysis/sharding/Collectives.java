package bufq.analysis.sharding;

import bufq.model.HloModule;
import bufq.model.HloValue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * What each collective of an SPMD module carries, traced in its optimized HLO text: a combined
 * collective (one all-reduce, reduce-scatter or all-gather over several operands: CPU and TPU
 * {@code all-reduce(a, b, c)}, a TPU fusion calling {@code %all-reduce-scatter.N} with several
 * operands) split to the pytree leaf of each operand, and the all-reduces that reduce a whole array
 * where a reduce-scatter would have reduced a piece.
 *
 * <p>A reduction's element {@code i} names the leaf of the first entry parameter of its per-device
 * dimensions that an instruction reading it (through tuple elements, copies, converts and bitcasts,
 * a few steps) also reads: the optimizer's update reads the gradient beside the parameter and its
 * state. A gather's operand names the entry parameter it reads (through the same steps back). Where
 * neither meets a parameter, the element says so; nothing is guessed from shapes alone.
 *
 * <p>An all-reduce over groups of {@code g} devices is reduced <em>whole</em> when an instruction then
 * keeps a {@code 1/g} piece of it (a dynamic-slice: XLA reduced every element on every device to
 * keep a piece, which a reduce-scatter moves and holds at 1/g), or when it meets a replicated entry
 * parameter of its dimensions (the gradient of a replicated array is reduced whole on every device),
 * of {@link #LARGE} elements or more.
 * Immutable; read once per module.
 */
public final class Collectives {
    /** One element of a collective: the leaf it carries, or null when the trace met no parameter. */
    public record Element(int index, long[] dims, String leaf, String path) {}

    /**
     * A collective instruction.
     *
     * @param kind     {@code all-reduce}, {@code reduce-scatter}, {@code all-gather}
     * @param elements one per operand
     * @param whole    for an all-reduce: why it reduced a whole array on every device, else null
     */
    public record Collective(String name, String kind, List<Element> elements, String whole) {
        public Collective {
            elements = List.copyOf(elements);
        }

        public boolean combined() { return elements.size() > 1; }

        /** The distinct leaves its elements carry, in order. */
        public List<String> leaves() {
            List<String> out = new ArrayList<>();
            for (Element e : elements) if (e.leaf() != null && !out.contains(e.leaf())) out.add(e.leaf());
            return out;
        }
    }

    private final Map<String, Collective> byName;
    private final String missing;

    private Collectives(Map<String, Collective> byName, String missing) {
        this.byName = byName;
        this.missing = missing;
    }

    /** The collectives of {@code m}, read once and kept with it; none without its HLO text. */
    public static Collectives of(HloModule m) {
        return m.derived(Collectives.class, Collectives::read);
    }

    private static Collectives read(HloModule m) {
        Shardings s = Shardings.of(m);
        if (!s.known() || s.source() == null || !s.source().contains(".txt"))
            return new Collectives(Map.of(), s.missing() == null ? "the optimized HLO text gives the collectives" : s.missing());
        try (InputStream raw = Files.newInputStream(Path.of(s.source()));
             InputStream in = s.source().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
            return of(HloTextGraph.read(r), s);
        } catch (IOException | RuntimeException e) {
            return new Collectives(Map.of(), s.source() + " could not be read for its collectives: " + e.getMessage());
        }
    }

    /** From text held in memory (tests). */
    public static Collectives ofText(String text, Shardings s) {
        try {
            return of(HloTextGraph.read(new BufferedReader(new java.io.StringReader(text))), s);
        } catch (IOException e) {
            return new Collectives(Map.of(), e.getMessage());
        }
    }

    private static final Pattern FAMILY = Pattern.compile("^(all-reduce-scatter|reduce-scatter|all-reduce|all-gather)");
    private static final Set<String> PASS = Set.of("get-tuple-element", "copy", "copy-start", "copy-done", "convert", "bitcast",
            "reshape", "all-reduce-done", "all-gather-done", "async-done", "optimization-barrier");
    private static final int STEPS = 4;

    private static Collectives of(HloTextGraph g, Shardings s) {
        Map<String, ShardedParameter> params = s.parameters();
        Map<String, Collective> out = new LinkedHashMap<>();
        // a fusion calling %all-reduce-scatter.N is the collective; the all-reduce and slice inside are how it is written
        Set<String> inside = new HashSet<>();
        for (HloTextGraph.Instruction ins : g.byName.values())
            if (ins.opcode().equals("fusion") && ins.calls() != null && kind(ins) != null) inside.add(ins.calls());
        for (HloTextGraph.Instruction ins : g.byName.values()) {
            String kind = kind(ins);
            if (kind == null || inside.contains(ins.computation())) continue;
            List<long[]> arrays = HloTextGraph.arrays(ins.shape());
            List<Element> elements = new ArrayList<>();
            int n = Math.max(1, ins.operands().size());
            for (int i = 0; i < n && i < arrays.size(); i++) {
                ShardedParameter p = kind.equals("all-gather")
                        ? back(g, params, ins.operands().isEmpty() ? null : ins.operands().get(i), true)
                        : forward(g, params, ins, arrays.size() > 1 ? i : -1, arrays.get(i));
                String path = p == null ? null : p.opName() == null || p.opName().isEmpty() ? p.name() : p.opName();
                elements.add(new Element(i, arrays.get(i), path == null ? null : Replication.leaf(path), path));
            }
            String whole = kind.equals("all-reduce") ? whole(g, params, ins, arrays) : null;
            out.put(ins.name(), new Collective(ins.name(), kind, elements, whole));
        }
        return new Collectives(out, null);
    }

    /** The collective family of {@code ins}, by opcode or by the computation a fusion calls; null for none. */
    private static String kind(HloTextGraph.Instruction ins) {
        String op = ins.opcode();
        if (op.endsWith("-done")) return null;
        String probe = op.equals("fusion") && ins.calls() != null ? ins.calls() : op;
        Matcher m = FAMILY.matcher(probe);
        if (!m.find()) return null;
        return switch (m.group(1)) {
            case "all-reduce-scatter", "reduce-scatter" -> "reduce-scatter";
            case "all-reduce" -> "all-reduce";
            default -> "all-gather";
        };
    }

    /** The first entry parameter of {@code dims} that a reader of element {@code index} of {@code ins} reads, a few steps on. */
    private static ShardedParameter forward(HloTextGraph g, Map<String, ShardedParameter> params, HloTextGraph.Instruction ins,
                                            int index, long[] dims) {
        List<HloTextGraph.Instruction> frontier = new ArrayList<>();
        for (HloTextGraph.Instruction u : g.users(ins.name()))
            if (index < 0 || !u.opcode().equals("get-tuple-element") || u.index() == index) frontier.add(u);
        Set<String> seen = new HashSet<>();
        for (int step = 0; step < STEPS && !frontier.isEmpty(); step++) {
            List<HloTextGraph.Instruction> next = new ArrayList<>();
            for (HloTextGraph.Instruction u : frontier) {
                if (!seen.add(u.name())) continue;
                if (index >= 0 && u.opcode().equals("get-tuple-element") && step == 0) {
                    next.addAll(g.users(u.name()));
                    continue;
                }
                for (String o : u.operands()) {
                    ShardedParameter p = back(g, params, o, false);   // a parameter, or its copy prefetched to another memory
                    if (p != null && Arrays.equals(dims(p), dims)) return p;
                }
                if (PASS.contains(u.opcode()) || u.opcode().equals("fusion")) next.addAll(g.users(u.name()));
            }
            frontier = next;
        }
        return null;
    }

    /** The entry parameter {@code name} reads, a few steps back through copies (and a fusion's first operand when {@code fusions}). */
    private static ShardedParameter back(HloTextGraph g, Map<String, ShardedParameter> params, String name, boolean fusions) {
        for (int step = 0; step <= STEPS && name != null; step++) {
            ShardedParameter p = params.get(name);
            if (p != null) return p;
            HloTextGraph.Instruction ins = g.byName.get(name);
            if (ins == null || ins.operands().isEmpty()) return null;
            if (!PASS.contains(ins.opcode()) && !(fusions && ins.opcode().equals("fusion"))) return null;
            name = ins.operands().get(0);
        }
        return null;
    }

    private static long[] dims(ShardedParameter p) {
        List<long[]> a = HloTextGraph.arrays(p.shape());
        return a.isEmpty() ? new long[0] : a.get(0);
    }

    /** Why the all-reduce {@code ins} reduced whole arrays on every device, or null. */
    private static String whole(HloTextGraph g, Map<String, ShardedParameter> params, HloTextGraph.Instruction ins, List<long[]> arrays) {
        long group = groupSize(ins.replicaGroups());
        long elements = 0;
        for (long[] a : arrays) elements += count(a);
        if (group > 1) {
            for (HloTextGraph.Instruction u : g.users(ins.name())) {
                if (!u.opcode().equals("dynamic-slice") && !u.opcode().equals("slice")) continue;
                List<long[]> kept = HloTextGraph.arrays(u.shape());
                if (kept.isEmpty()) continue;
                long k = count(kept.get(0));
                if (k > 0 && k * group == elements)
                    return "all-reduced whole, not reduce-scattered: every device reduces all " + elements + " elements and keeps 1/"
                            + group + " (" + u.name() + ")";
            }
        }
        for (int i = 0; i < arrays.size(); i++) {
            ShardedParameter p = forward(g, params, ins, arrays.size() > 1 ? i : -1, arrays.get(i));
            if (p != null && p.sharding() != null && p.sharding().replicated() && count(arrays.get(i)) >= LARGE)
                return "all-reduced whole, not reduce-scattered: the gradient of replicated " + (p.opName() == null ? p.name() : p.opName())
                        + " (sharding it would reduce-scatter it)";
        }
        return null;
    }

    /** Elements below which a replicated gradient reduced whole is not worth a word (a norm's scale or bias). */
    static final long LARGE = 1 << 18;

    private static long count(long[] dims) {
        long n = 1;
        for (long d : dims) n *= d;
        return n;
    }

    /** Devices per group of {@code replica_groups}: {@code {{0,1,2,3}}}, {@code [2,2]<=[4]} (the last is the group); 0 when unknown. */
    static long groupSize(String groups) {
        if (groups == null) return 0;
        String t = groups.strip();
        if (t.startsWith("{{")) {
            int e = t.indexOf('}');
            return e < 0 ? 0 : t.substring(2, e).split(",").length;
        }
        if (t.startsWith("[")) {
            int e = t.indexOf(']');
            String[] d = t.substring(1, e).split(",");
            try {
                return Long.parseLong(d[d.length - 1].strip());
            } catch (NumberFormatException x) {
                return 0;
            }
        }
        return 0;
    }

    /** Every collective found, by instruction name. */
    public Map<String, Collective> all() { return byName; }

    /** Why none were read, or null. */
    public String missing() { return missing; }

    /** The collective that made {@code v} (its instruction, or the start an async done finishes), or null. */
    public Collective of(HloValue v) {
        return byName.get(v.name());
    }

    /** The combined ones, in text order. */
    public List<Collective> combined() {
        return byName.values().stream().filter(Collective::combined).toList();
    }

    /** The all-reduces that reduced whole arrays, in text order. */
    public List<Collective> reducedWhole() {
        return byName.values().stream().filter(c -> c.whole() != null).toList();
    }

    /** {@code v}'s element of the collective that made it, or null. */
    public Element elementOf(HloValue v) {
        Collective c = of(v);
        if (c == null) return null;
        String idx = v.index() == null ? "" : v.index().replaceAll("[{} ]", "");
        if (idx.isEmpty() && c.elements().size() > 1) return null;   // the tuple itself, no one operand's
        int i;
        try {
            i = idx.isEmpty() ? 0 : Integer.parseInt(idx.split(",")[0]);
        } catch (NumberFormatException e) {
            return null;
        }
        return i < c.elements().size() ? c.elements().get(i) : null;
    }
}
