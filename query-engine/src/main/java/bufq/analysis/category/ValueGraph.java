package bufq.analysis.category;

import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloPosition;
import bufq.model.HloUse;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of one module as a graph: an edge from a value to each value that an instruction
 * reading it defines, read from the Used values section (each value's uses, with the shape index
 * a while loop takes it at, and its positions). Loops are closed: a value at the root of a while
 * body flows into the loop's phi values at the same index, the body root and parameters found as
 * the tuple and parameters that the values passed through the loop unchanged share with the
 * {@code while}. Built once per classification, in time and space linear in the uses.
 */
final class ValueGraph {
    final int n;
    final HloInstruction[] ins;          // each value's defining instruction, null when the dump has none
    private final int[][] succ;          // value -> values made from it
    private final int[][] pred;          // value -> values it is made from
    private final int[][] predOperand;   // the operand number each pred edge is read at (-1: a loop's carry)

    private ValueGraph(int n, HloInstruction[] ins, int[][] succ, int[][] pred, int[][] predOperand) {
        this.n = n;
        this.ins = ins;
        this.succ = succ;
        this.pred = pred;
        this.predOperand = predOperand;
    }

    int[] succ(int i) { return succ[i]; }

    int[] pred(int i) { return pred[i]; }

    /** The operand number of {@code pred(i)[k]} in the instruction that made {@code i}; -1 for a loop carry. */
    int predOperand(int i, int k) { return predOperand[i][k]; }

    String opcode(int i) { return ins[i] == null ? null : ins[i].opcode(); }

    /** The value's op_name, or null when it has none. */
    String opName(int i) {
        String op = ins[i] == null ? null : ins[i].opName();
        return op == null || op.isEmpty() ? null : op;
    }

    static ValueGraph of(HloModule m) {
        List<HloValue> values = m.values();
        int n = values.size();
        HloInstruction[] ins = new HloInstruction[n];
        Map<String, int[]> byName = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            HloValue v = values.get(i);
            ins[i] = m.instruction(v.name());
            int[] old = byName.get(v.name());
            if (old == null) byName.put(v.name(), new int[] {i});
            else {
                int[] grown = Arrays.copyOf(old, old.length + 1);
                grown[old.length] = i;
                byName.put(v.name(), grown);
            }
        }
        Edges e = new Edges(n);
        for (int i = 0; i < n; i++) {
            for (HloUse u : values.get(i).uses()) {
                int[] defs = byName.get(u.user());
                if (defs == null) continue;
                HloInstruction user = m.instruction(u.user());
                String opc = user == null ? null : user.opcode();
                if ("tuple".equals(opc)) continue;   // the element is the same value; the tuple's own is a table of pointers
                boolean byIndex = "while".equals(opc) || "conditional".equals(opc) || "call".equals(opc);
                for (int d : defs) {
                    if (d == i) continue;
                    if (byIndex && !values.get(d).index().equals(u.index())) continue;
                    e.add(i, d, u.operand());
                }
            }
        }
        closeLoops(m, values, byName, e);
        return new ValueGraph(n, ins, e.out(), e.in(), e.inOperand());
    }

    /**
     * Joins each while loop's body root to its phi values: the tuple (not the loop's operand) and
     * the parameters that share an index with the {@code while} in most of the values passed through
     * it unchanged are the body's root and parameters.
     */
    private static void closeLoops(HloModule m, List<HloValue> values, Map<String, int[]> byName, Edges e) {
        Map<String, Map<String, Integer>> votes = new HashMap<>();
        for (int i = 0; i < values.size(); i++) {
            HloValue v = values.get(i);
            if (v.phi()) continue;
            List<HloPosition> ps = v.positions();
            if (ps.size() < 3) continue;
            for (HloPosition w : ps) {
                HloInstruction wi = m.instruction(w.instruction());
                if (wi == null || !"while".equals(wi.opcode())) continue;
                for (HloPosition o : ps) {
                    if (o == w || !o.index().equals(w.index()) || wi.operands().contains(o.instruction())) continue;
                    HloInstruction oi = m.instruction(o.instruction());
                    String opc = oi == null ? null : oi.opcode();
                    if (!"tuple".equals(opc) && !"parameter".equals(opc)) continue;
                    votes.computeIfAbsent(w.instruction(), k -> new HashMap<>()).merge(o.instruction(), 1, Integer::sum);
                }
            }
        }
        Map<String, List<String>> loopOfRoot = new HashMap<>();   // body root -> the loop's phi holders (while, params)
        for (Map.Entry<String, Map<String, Integer>> w : votes.entrySet()) {
            String root = null;
            int best = 0, bestParam = 0;
            for (Map.Entry<String, Integer> c : w.getValue().entrySet()) {
                HloInstruction ci = m.instruction(c.getKey());
                if ("tuple".equals(ci.opcode()) && c.getValue() > best) { best = c.getValue(); root = c.getKey(); }
                if ("parameter".equals(ci.opcode())) bestParam = Math.max(bestParam, c.getValue());
            }
            if (root == null) continue;
            List<String> holders = new ArrayList<>();
            holders.add(w.getKey());
            for (Map.Entry<String, Integer> c : w.getValue().entrySet())
                if (c.getValue() == bestParam && "parameter".equals(m.instruction(c.getKey()).opcode())) holders.add(c.getKey());
            loopOfRoot.put(root, holders);
            // the loop's initial values flow into the body's parameters too
            for (int d : byName.getOrDefault(w.getKey(), new int[0])) {
                int[] in = e.inOf(d);
                for (int s : in) for (String p : holders.subList(1, holders.size())) link(byName, values, p, values.get(d).index(), s, e);
            }
        }
        if (loopOfRoot.isEmpty()) return;
        for (int i = 0; i < values.size(); i++) {
            for (HloPosition p : values.get(i).positions()) {
                List<String> holders = loopOfRoot.get(p.instruction());
                if (holders == null || "{}".equals(p.index())) continue;
                for (String h : holders) link(byName, values, h, p.index(), i, e);
            }
        }
    }

    private static void link(Map<String, int[]> byName, List<HloValue> values, String holder, String index, int from, Edges e) {
        for (int d : byName.getOrDefault(holder, new int[0]))
            if (d != from && values.get(d).phi() && values.get(d).index().equals(index)) e.add(from, d, -1);
    }

    /** Edge lists built by appending, then frozen into arrays. */
    private static final class Edges {
        private final int[][] out, in, inOp;
        private final int[] outN, inN;

        Edges(int n) {
            out = new int[n][];
            in = new int[n][];
            inOp = new int[n][];
            outN = new int[n];
            inN = new int[n];
        }

        void add(int from, int to, int operand) {
            out[from] = push(out[from], outN[from]++, to);
            inOp[to] = push(inOp[to], inN[to], operand);
            in[to] = push(in[to], inN[to]++, from);
        }

        int[] inOf(int i) { return in[i] == null ? new int[0] : Arrays.copyOf(in[i], inN[i]); }

        private static int[] push(int[] a, int size, int x) {
            if (a == null) a = new int[2];
            else if (size == a.length) a = Arrays.copyOf(a, size * 2);
            a[size] = x;
            return a;
        }

        int[][] out() { return trim(out, outN); }

        int[][] in() { return trim(in, inN); }

        int[][] inOperand() { return trim(inOp, inN); }

        private static int[][] trim(int[][] a, int[] size) {
            int[][] r = new int[a.length][];
            int[] none = new int[0];
            for (int i = 0; i < a.length; i++) r[i] = a[i] == null ? none : Arrays.copyOf(a[i], size[i]);
            return r;
        }
    }
}
