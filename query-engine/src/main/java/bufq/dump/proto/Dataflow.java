package bufq.dump.proto;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The HloValues of a module and where they appear, as XLA's {@code HloDataflowAnalysis} finds them
 * for buffer assignment (SSA form, bitcasts do not define values): which instruction defines each
 * value at which shape index, every (instruction, index) position holding it, and its uses. A proto
 * dump carries the values' ids and places but not their positions and uses, and the live ranges
 * need both; the text dump's {@code Used values} section lists what this computes.
 *
 * <p>Values defined by a while or by a while body's (or condition's) parameter start as phis; a phi
 * whose inputs other than itself are one value is that value, as XLA's phi optimisation leaves it.
 * Fusion bodies are not analysed. The sets are recomputed until nothing changes.
 */
final class Dataflow {
    /** A value: its defining instruction and index, and whether it stayed a phi. */
    static final class Value {
        final int instruction;
        final int[] index;
        final boolean phiDefined;
        boolean live;          // still present in some value set (phis may be optimised away)
        final List<int[]> positions = new ArrayList<>(1);   // {instruction, index slot}
        final List<Use> uses = new ArrayList<>(1);

        Value(int instruction, int[] index, boolean phi) {
            this.instruction = instruction;
            this.index = index;
            this.phiDefined = phi;
        }
    }

    /** A use: instruction {@code user} reads it as operand {@code operand} at {@code index} of that operand. */
    record Use(int user, int operand, int[] index) {}

    private final Graph g;
    final List<Value> values = new ArrayList<>();
    /** Per instruction: its shape indices (preorder) and, for each, the value numbers held there. */
    final int[][][] indexOf;
    final int[][][] sets;
    /** Per instruction and index slot: the value defined there, or -1. */
    private final int[][] defined;

    /** The indices of an array shape: only {@code {}} (shared; most instructions have one). */
    private static final int[][] LEAF = {new int[0]};
    private static final int[] UNDEFINED = {-1};

    Dataflow(Graph g) {
        this.g = g;
        int n = g.size();
        indexOf = new int[n][][];
        sets = new int[n][][];
        defined = new int[n][];
        for (int i = 0; i < n; i++) {
            Messages.ShapeP shape = g.ins[i].shape();
            indexOf[i] = Graph.isTupleShape(shape) ? Graph.indices(shape).toArray(new int[0][]) : LEAF;
            sets[i] = new int[indexOf[i].length][];
            defined[i] = indexOf[i].length == 1 ? UNDEFINED : filled(indexOf[i].length);
        }
        for (int i = 0; i < n; i++) {
            if (g.fusionBody[g.computationOf[i]]) continue;
            define(i);
        }
        for (int pass = 0; pass < 1000; pass++) {
            boolean changed = false;
            for (int i = 0; i < n; i++) {
                if (g.fusionBody[g.computationOf[i]]) continue;
                changed |= update(i);
            }
            if (!changed) break;
        }
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < sets[i].length; k++) {
                if (sets[i][k] == null) sets[i][k] = new int[0];
                for (int v : sets[i][k]) values.get(v).live = true;
            }
        }
        positionsAndUses();
    }

    /** The value defined at {@code instruction} and {@code index}, or -1. */
    int valueAt(int instruction, long[] index) {
        int k = slot(instruction, toInt(index));
        return k < 0 ? -1 : defined[instruction][k];
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    /** The slot of {@code index} in {@code instruction}'s indices, or -1. */
    int slot(int instruction, int[] index) {
        int[][] all = indexOf[instruction];
        for (int k = 0; k < all.length; k++) if (Arrays.equals(all[k], index)) return k;
        return -1;
    }

    private static int[] toInt(long[] a) {
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) r[i] = (int) a[i];
        return r;
    }

    private int newValue(int i, int k, boolean phi) {
        values.add(new Value(i, indexOf[i][k], phi));
        int v = values.size() - 1;
        if (defined[i] == UNDEFINED) defined[i] = new int[] {v};
        else defined[i][k] = v;
        sets[i][k] = new int[] {v};
        return v;
    }

    /** Which indices an instruction defines; the others are filled by {@link #update}. */
    private void define(int i) {
        String op = g.opcode(i);
        int n = indexOf[i].length;
        switch (op) {
            case "parameter" -> {
                int c = g.computationOf[i];
                if (c == g.entry || g.callers.get(c).isEmpty()) {
                    for (int k = 0; k < n; k++) newValue(i, k, false);
                } else if (calledByWhile(c)) {
                    for (int k = 0; k < n; k++) newValue(i, k, true);
                }
                // a call's or a conditional's parameter forwards its caller's operand
            }
            case "while" -> { for (int k = 0; k < n; k++) newValue(i, k, true); }
            case "tuple" -> newValue(i, 0, false);
            case "copy" -> newValue(i, 0, false);
            case "copy-start" -> {
                for (int k = 0; k < n; k++) if (!(indexOf[i][k].length >= 1 && indexOf[i][k][0] == 1)) newValue(i, k, false);
            }
            case "get-tuple-element", "bitcast", "domain", "add-dependency", "opt-barrier", "optimization-barrier",
                 "call", "copy-done" -> { }
            case "conditional" -> { for (int k = 0; k < n; k++) newValue(i, k, true); }
            default -> { for (int k = 0; k < n; k++) newValue(i, k, false); }
        }
    }

    private boolean calledByWhile(int c) {
        for (int caller : g.callers.get(c)) if (g.opcode(caller).equals("while")) return true;
        return false;
    }

    /** The value set of {@code instruction} at {@code index}, or null when not known yet. */
    private int[] setAt(int instruction, int[] index) {
        if (instruction < 0) return null;
        int k = slot(instruction, index);
        return k < 0 ? null : sets[instruction][k];
    }

    private static int[] concat(int[] prefix, int[] rest) {
        int[] r = Arrays.copyOf(prefix, prefix.length + rest.length);
        System.arraycopy(rest, 0, r, prefix.length, rest.length);
        return r;
    }

    /** Recomputes the forwarded (and phi) indices of {@code i}; true when a set changed. */
    private boolean update(int i) {
        String op = g.opcode(i);
        int[] ops = g.operands[i];
        boolean changed = false;
        for (int k = 0; k < indexOf[i].length; k++) {
            int[] idx = indexOf[i][k];
            int[] next = switch (op) {
                case "get-tuple-element" -> ops.length > 0 ? setAt(ops[0], concat(new int[] {(int) g.ins[i].tupleIndex()}, idx)) : null;
                case "tuple" -> idx.length == 0 || idx[0] >= ops.length ? sets[i][k] : setAt(ops[idx[0]], Arrays.copyOfRange(idx, 1, idx.length));
                case "bitcast", "domain", "add-dependency", "opt-barrier", "optimization-barrier" -> ops.length > 0 ? setAt(ops[0], idx) : null;
                case "copy" -> idx.length == 0 || ops.length == 0 ? sets[i][k] : setAt(ops[0], idx);
                case "copy-done" -> ops.length > 0 ? setAt(ops[0], concat(new int[] {0}, idx)) : null;
                case "copy-start" -> idx.length >= 1 && idx[0] == 1 && ops.length > 0 ? setAt(ops[0], Arrays.copyOfRange(idx, 1, idx.length)) : sets[i][k];
                case "call" -> {
                    int[] c = g.called(i);
                    yield c.length > 0 && c[0] >= 0 ? setAt(g.roots[c[0]], idx) : null;
                }
                case "while" -> phi(i, k, whileInputs(i, idx));
                case "conditional" -> phi(i, k, conditionalInputs(i, idx));
                case "parameter" -> parameter(i, k, idx);
                default -> sets[i][k];
            };
            if (next != null && !Arrays.equals(next, sets[i][k])) {
                sets[i][k] = next;
                changed = true;
            }
        }
        return changed;
    }

    private List<int[]> whileInputs(int w, int[] idx) {
        List<int[]> in = new ArrayList<>(2);
        int[] parts = g.whileParts(w);
        if (parts[1] >= 0) in.add(setAt(g.roots[parts[1]], idx));
        if (g.operands[w].length > 0) in.add(setAt(g.operands[w][0], idx));
        return in;
    }

    private List<int[]> conditionalInputs(int c, int[] idx) {
        List<int[]> in = new ArrayList<>();
        for (int comp : g.called(c)) if (comp >= 0) in.add(setAt(g.roots[comp], idx));
        return in;
    }

    private int[] parameter(int p, int k, int[] idx) {
        int c = g.computationOf[p];
        if (c == g.entry || g.callers.get(c).isEmpty()) return sets[p][k];
        List<int[]> in = new ArrayList<>();
        for (int caller : g.callers.get(c)) {
            String op = g.opcode(caller);
            if (op.equals("while")) {
                if (g.operands[caller].length > 0) in.add(setAt(g.operands[caller][0], idx));
                int body = g.whileParts(caller)[1];
                if (body >= 0) in.add(setAt(g.roots[body], idx));
            } else if (op.equals("call")) {
                long number = g.ins[p].parameterNumber();
                if (number < g.operands[caller].length) in.add(setAt(g.operands[caller][(int) number], idx));
            } else if (op.equals("conditional")) {
                int[] branches = g.called(caller);
                for (int b = 0; b < branches.length; b++) {
                    if (branches[b] == c && b + 1 < g.operands[caller].length) in.add(setAt(g.operands[caller][b + 1], idx));
                }
            }
        }
        if (defined[p][k] >= 0) return phi(p, k, in);
        return union(in);
    }

    /** A phi's set: the one input value other than itself when there is exactly one, else the phi. */
    private int[] phi(int i, int k, List<int[]> inputs) {
        int own = defined[i][k];
        if (own < 0) return union(inputs);
        Set<Integer> in = new LinkedHashSet<>();
        for (int[] s : inputs) if (s != null) for (int v : s) if (v != own) in.add(v);
        if (in.size() == 1) return new int[] {in.iterator().next()};
        return new int[] {own};
    }

    private static int[] union(List<int[]> inputs) {
        int[] only = null;
        int nonNull = 0;
        for (int[] s : inputs) if (s != null) { only = s; nonNull++; }
        if (nonNull == 1) return only;   // one input: its set (sets are kept sorted)
        Set<Integer> in = new LinkedHashSet<>();
        boolean any = false;
        for (int[] s : inputs) if (s != null) { any = true; for (int v : s) in.add(v); }
        if (!any) return null;
        int[] r = in.stream().mapToInt(Integer::intValue).sorted().toArray();
        return r;
    }

    /**
     * Positions in module order (defining position first), then uses as {@code HloValue::ComputeUses}
     * lists them, users in module order. XLA's own order (what the text dump prints) is not in the
     * proto: it walks computations and instructions in the order they were added to the module, and
     * each instruction's users in the order they were added, with a removed user's place taken by the
     * last one ({@code HloInstruction::Users::RemoveUser}); {@code HloModule::ToProto} writes
     * computations and instructions in post order and writes no users. The same positions and uses
     * are found, in another order where compilation moved things.
     */
    private void positionsAndUses() {
        for (int i = 0; i < g.size(); i++) {
            for (int k = 0; k < sets[i].length; k++) {
                for (int v : sets[i][k]) {
                    Value val = values.get(v);
                    int[] pos = {i, k};
                    if (val.instruction == i && Arrays.equals(val.index, indexOf[i][k])) val.positions.add(0, pos);
                    else val.positions.add(pos);
                }
            }
        }
        for (Value v : values) {
            if (!v.live) continue;
            boolean anyRoot = false;
            for (int[] p : v.positions) anyRoot |= g.isRoot(p[0]);
            for (int[] p : v.positions) {
                int at = p[0];
                int[] idx = indexOf[at][p[1]];
                for (int user : g.users[at]) {
                    int[] ops = g.operands[user];
                    for (int o = 0; o < ops.length; o++) {
                        if (ops[o] != at) continue;
                        if (mayUse(user, idx) || anyRoot && isRootPosition(v, user)) v.uses.add(new Use(user, o, idx));
                    }
                }
            }
        }
    }

    /** Whether {@code user} is a computation's root at which {@code v} appears. */
    private boolean isRootPosition(Value v, int user) {
        if (!g.isRoot(user)) return false;
        for (int[] p : v.positions) if (p[0] == user) return true;
        return false;
    }

    /** XLA's MayUseOperandValue: which operands an instruction reads rather than passes through. */
    private boolean mayUse(int user, int[] index) {
        return switch (g.opcode(user)) {
            case "get-tuple-element", "copy" -> index.length == 0;
            case "domain", "tuple" -> false;
            default -> true;
        };
    }

    /** Whether value {@code v} is (still) a phi. */
    boolean isPhi(int v) {
        return values.get(v).phiDefined;
    }
}
