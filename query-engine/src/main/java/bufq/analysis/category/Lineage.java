package bufq.analysis.category;

import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.Shape;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each value is of the program's arguments: the entry parameter a value copies (through
 * copies, bitcasts, transposes, converts, reshapes and slices, XLA's fusions of only those, a
 * loop's carry, and all-gathers), and whether an all-gather is on the way. Linear: a walk from
 * the entry parameters along the edges of {@link ValueGraph} that only move or convert bytes.
 */
final class Lineage {
    /** Opcodes whose output is their first operand's bytes moved, re-laid or converted. */
    static final Set<String> LAYOUT = Set.of("copy", "bitcast", "transpose", "convert", "reshape", "slice", "dynamic-slice",
            "copy-start", "copy-done", "bitcast-convert", "slice-start", "slice-done");

    /** The words XLA names a fusion of only such ops with ({@code transpose_copy_fusion}, {@code convert_fusion.3}). */
    private static final Set<String> LAYOUT_WORDS = Set.of("copy", "bitcast", "transpose", "convert", "reshape", "slice",
            "dynamic-slice", "fusion", "bitcast-convert");

    static final Set<String> GATHER_OPCODES = Set.of("all-gather", "all-gather-start", "all-gather-done");

    /** Per value, the position of the entry parameter it copies, or -1. */
    final int[] origin;
    /** Per value, whether an all-gather lies between it and its {@link #origin}. */
    final boolean[] gathered;
    /** Per value, whether a collective made it or carries it (in flight through XLA:TPU's asynchronous collective fusions). */
    final boolean[] collective;

    private Lineage(int[] origin, boolean[] gathered, boolean[] collective) {
        this.origin = origin;
        this.gathered = gathered;
        this.collective = collective;
    }

    static Lineage of(ValueGraph g, List<HloValue> values, boolean[] entry) {
        int n = g.n;
        int[] origin = new int[n];
        Arrays.fill(origin, -1);
        boolean[] gathered = new boolean[n];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int i = 0; i < n; i++) if (entry[i]) { origin[i] = i; queue.add(i); }
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (int j : g.succ(s)) {
                if (origin[j] >= 0 || entry[j]) continue;
                int how = copies(g, values, j, s);
                if (how == 0) continue;
                // a tuple's table of pointers (slice-start{}, copy-start{}) holds no gathered bytes
                if ((gathered[s] || how == 2) && (values.get(j).shape() == null || !values.get(j).shape().isArray())) continue;
                origin[j] = origin[s];
                gathered[j] = gathered[s] || how == 2;
                queue.add(j);
            }
        }
        return new Lineage(origin, gathered, collectives(g, values));
    }

    /**
     * The values collectives make, and those XLA:TPU's asynchronous collective fusions carry on from
     * them: an output of such a fusion shaped like (or gathered or scattered from) a value in flight.
     * What the fusion computes meanwhile is not a collective's.
     */
    private static boolean[] collectives(ValueGraph g, List<HloValue> values) {
        int n = g.n;
        boolean[] in = new boolean[n];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            if (!made(g, i)) continue;
            in[i] = true;
            queue.add(i);
        }
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (int j : g.succ(s)) {
                if (in[j] || !asyncCollective(g, j)) continue;
                Shape from = values.get(s).shape(), to = values.get(j).shape();
                if (relation(from, to) == 0 && relation(to, from) != 2) continue;
                in[j] = true;
                queue.add(j);
            }
        }
        return in;
    }

    private static final Set<String> COLLECTIVE_OPCODES = Set.of("all-gather", "all-gather-start", "all-gather-done",
            "all-reduce", "all-reduce-start", "all-reduce-done", "reduce-scatter", "all-to-all", "ragged-all-to-all",
            "collective-permute", "collective-permute-start", "collective-permute-done", "collective-broadcast",
            "async-collective-start", "async-collective-done");

    /** Made by a collective: by opcode, a fusion calling one, or the start of an asynchronous one. */
    private static boolean made(ValueGraph g, int i) {
        String opc = g.opcode(i);
        if (opc == null) return false;
        if (COLLECTIVE_OPCODES.contains(opc)) return true;
        if ("custom-call".equals(opc)) return "AsyncCollectiveStart".equals(target(g.ins[i]));
        if (!"fusion".equals(opc)) return false;
        if (g.ins[i].name().startsWith("async-collective-start")) return true;
        String calls = calls(g.ins[i]);
        if (calls == null) return false;
        for (String c : List.of("all-gather", "all-reduce", "reduce-scatter", "all-to-all", "collective-permute"))
            if (calls.startsWith(c)) return true;
        return false;
    }

    /** Whether value {@code j} copies the bytes of its operand {@code s}: 0 no, 1 yes, 2 by an all-gather. */
    private static int copies(ValueGraph g, List<HloValue> values, int j, int s) {
        HloValue v = values.get(j);
        if (v.phi()) return 1;   // a loop carries it
        String opc = g.opcode(j);
        if (opc == null) return 0;
        Shape to = v.shape(), from = values.get(s).shape();
        if (to != null && to.text().startsWith("(")) return 0;   // a tuple's table of pointers copies no bytes
        if (LAYOUT.contains(opc)) return firstOperand(g, j, s) ? 1 : 0;
        if ("custom-call".equals(opc) && "ConcatBitcast".equals(target(g.ins[j]))) return 1;
        if (asyncCollective(g, j) && "fusion".equals(opc)) return asyncFusionCopies(g, j, s, v.index(), from, to);
        if (gather(g, j) || asyncCollective(g, j)) {
            int r = relation(from, to);
            return r == 2 ? 2 : r;
        }
        if ("fusion".equals(opc) && layoutFusion(v.name()) && to != null && from != null && from.rank() > 0
                && to.elementCount() <= from.elementCount()) return 1;
        return 0;
    }

    /**
     * One of XLA:TPU's asynchronous collectives: a fusion calling {@code %async_collective_fusion}
     * (it computes while a collective is in flight: its outputs are both), the fusions XLA names
     * {@code async-collective-start}/{@code -done}, or the {@code AsyncCollectiveStart}/{@code Done}
     * custom-calls.
     */
    static boolean asyncCollective(ValueGraph g, int j) {
        String opc = g.opcode(j);
        if ("custom-call".equals(opc)) {
            String t = target(g.ins[j]);
            return t != null && t.startsWith("AsyncCollective");
        }
        if (!"fusion".equals(opc)) return false;
        String name = g.ins[j].name();
        if (name.startsWith("async-collective-start") || name.startsWith("async-collective-done")) return true;
        String calls = calls(g.ins[j]);
        return calls != null && calls.startsWith("async_collective");
    }

    /** {@code {2}: (1, {})} in {@code output_to_operand_aliasing}: an output index and the operand it is written over. */
    private static final Pattern ALIASED = Pattern.compile("\\{([\\d, ]*)}: \\((\\d+), \\{}\\)");

    /**
     * What an XLA:TPU asynchronous collective fusion's output {@code index} holds of operand
     * {@code s}. Its {@code output_to_operand_aliasing} says which outputs carry an operand on (the
     * shard and the buffer in flight); an output it does not name is computed: the collective's
     * result in an {@code async-collective-start} (gathered where one dimension grew), else what the
     * fusion computes meanwhile (a matmul's output shaped like the weight is no copy of it).
     */
    private static int asyncFusionCopies(ValueGraph g, int j, int s, String index, Shape from, Shape to) {
        String attrs = g.ins[j].attributes();
        int k = attrs.indexOf("output_to_operand_aliasing={");
        if (k >= 0) {
            int end = attrs.indexOf(")}", k);
            Matcher m = ALIASED.matcher(attrs.substring(k, end < 0 ? attrs.length() : end + 2));
            while (m.find()) {
                if (!("{" + m.group(1).replace(" ", "") + "}").equals(index)) continue;
                int operand = Integer.parseInt(m.group(2));
                int[] p = g.pred(j);
                for (int e = 0; e < p.length; e++) if (p[e] == s && g.predOperand(j, e) == operand) return relation(from, to) == 1 ? 1 : 0;
                return 0;
            }
        }
        if (!g.ins[j].name().startsWith("async-collective-start")) return k >= 0 ? 0 : relation(from, to);
        return relation(from, to) == 2 ? 2 : 0;
    }

    /** A custom-call's {@code custom_call_target}, or null. */
    static String target(HloInstruction ins) { return attribute(ins, "custom_call_target=\"", "\""); }

    /** The text in {@code ins}'s attributes after {@code key} up to the first of {@code ends} (or the end), or null. */
    private static String attribute(HloInstruction ins, String key, String ends) {
        if (ins == null) return null;
        String a = ins.attributes();
        int c = a.indexOf(key);
        if (c < 0) return null;
        int e = c + key.length();
        while (e < a.length() && ends.indexOf(a.charAt(e)) < 0) e++;
        return a.substring(c + key.length(), e);
    }

    private static boolean firstOperand(ValueGraph g, int j, int s) {
        int[] p = g.pred(j);
        for (int k = 0; k < p.length; k++) if (p[k] == s && g.predOperand(j, k) <= 0) return true;
        return false;
    }

    /** An all-gather: by opcode, or a fusion calling one ({@code calls=%all-gather.3}). */
    static boolean gather(ValueGraph g, int j) {
        String opc = g.opcode(j);
        if (opc == null) return false;
        if (GATHER_OPCODES.contains(opc)) return true;
        if (!"fusion".equals(opc)) return false;
        String calls = calls(g.ins[j]);
        return calls != null && calls.startsWith("all-gather");
    }

    /** The computation a fusion calls, without its {@code %}, or null. */
    static String calls(HloInstruction ins) { return attribute(ins, "calls=%", ", }"); }

    /**
     * How {@code to} stands to {@code from}: 1 the same dims, 2 the same but one dim a whole
     * multiple larger (what an all-gather makes), 0 otherwise or unknown.
     */
    static int relation(Shape from, Shape to) {
        if (from == null || to == null || !from.isArray() || !to.isArray() || from.rank() != to.rank() || from.rank() == 0) return 0;
        if (!from.dtype().equals(to.dtype())) return 0;
        int grown = 0;
        for (int d = 0; d < from.rank(); d++) {
            long a = from.dim(d), b = to.dim(d);
            if (a == b) continue;
            if (a == 0 || b % a != 0 || b < a) return 0;
            grown++;
        }
        return grown == 0 ? 1 : grown == 1 ? 2 : 0;
    }

    /** A fusion XLA named after layout ops only: {@code transpose_copy_fusion.2}, {@code convert_fusion}. */
    static boolean layoutFusion(String name) {
        String base = name;
        int dot = base.lastIndexOf('.');
        if (dot > 0 && base.substring(dot + 1).chars().allMatch(Character::isDigit)) base = base.substring(0, dot);
        if (!base.endsWith("fusion") || base.equals("fusion")) return false;
        for (String w : base.split("_")) if (!LAYOUT_WORDS.contains(w)) return false;
        return true;
    }

    /** What {@code why} says a value copies: {@code a copy of params[1]['w'] (copy.3 = copy(...))}. */
    static String describe(String opcode, boolean gathered, String parameter) {
        String how = gathered ? "an all-gathered copy" : opcode == null ? "a copy" : switch (opcode) {
            case "convert" -> "a converted copy";
            case "transpose" -> "a transposed copy";
            case "bitcast", "reshape" -> "a reshaped view";
            case "slice", "dynamic-slice", "slice-start", "slice-done" -> "a slice";
            default -> "a copy";
        };
        return how + " of " + parameter;
    }
}
