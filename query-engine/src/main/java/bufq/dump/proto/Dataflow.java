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
 * Fusion bodies are not analysed. The sets are updated by a worklist until nothing changes.
 *
 * <p>In phases: the values each instruction defines (here), who reads whose sets and in what order
 * ({@link FlowReaders}), the worklist that settles the sets (here), then each value's positions and
 * uses ({@link ValueUses}).
 */
final class Dataflow {
    private final Graph g;
    final List<FlowValue> values = new ArrayList<>();
    /** Per instruction: its shape indices (preorder) and, for each, the value numbers held there. */
    final int[][][] indexOf;
    final int[][][] sets;
    /** Per instruction and index slot: the slots of that index's elements (null for an array shape). */
    private final int[][][] children;
    /** Per instruction and index slot: the value defined there, or -1. */
    private final int[][] defined;
    /** Per instruction: who reads its sets (its users, callees' parameters, callers of its computation). */
    private final FlowReaders readers;
    private final Thread caller = Thread.currentThread();

    /** The indices of an array shape: only {@code {}} (shared; most instructions have one). */
    private static final int[][] LEAF = {new int[0]};
    private static final int[] UNDEFINED = {-1};

    /**
     * Thrown when the loading thread is interrupted (Ctrl-C in the REPL), or when the sets do not
     * settle: the reader turns it into a {@link ProtoException}.
     */
    static final class Stopped extends RuntimeException {
        final boolean cancelled;

        Stopped(boolean cancelled, String reason) {
            super(reason, null, false, false);
            this.cancelled = cancelled;
        }
    }

    /**
     * The sets are found by a worklist in dependency order: each instruction is looked at once after
     * the instructions it reads, and again only when one of those changed (a while's loop), so the
     * work is linear in the module's size, whatever order the proto lists instructions in.
     *
     * @throws Stopped when the loading thread is interrupted, or the sets do not settle
     */
    Dataflow(Graph g) {
        this.g = g;
        int n = g.size();
        indexOf = new int[n][][];
        sets = new int[n][][];
        children = new int[n][][];
        defined = new int[n][];
        List<int[]> idx = new ArrayList<>();
        List<int[]> kids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Shapes.ShapeP shape = g.ins[i].shape();
            if (Graph.isTupleShape(shape)) {
                idx.clear();
                kids.clear();
                walk(shape, new int[0], idx, kids);
                indexOf[i] = idx.toArray(new int[0][]);
                children[i] = kids.toArray(new int[0][]);
            } else {
                indexOf[i] = LEAF;
            }
            sets[i] = new int[indexOf[i].length][];
            defined[i] = indexOf[i].length == 1 ? UNDEFINED : filled(indexOf[i].length);
            if ((i & 0xfff) == 0) checkCancelled();
        }
        for (int i = 0; i < n; i++) {
            if (g.fusionBody[g.computationOf[i]]) continue;
            define(i);
        }
        readers = new FlowReaders(g);
        settle();
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < sets[i].length; k++) {
                if (sets[i][k] == null) sets[i][k] = new int[0];
                for (int v : sets[i][k]) values.get(v).live = true;
            }
        }
        ValueUses.find(g, sets, indexOf, values, this::checkCancelled);
    }

    private void checkCancelled() {
        if (caller.isInterrupted()) throw new Stopped(true, "cancelled");
    }

    /** Every index of {@code s} in preorder into {@code out}, and each index's element slots into {@code kids}. */
    private static void walk(Shapes.ShapeP s, int[] prefix, List<int[]> out, List<int[]> kids) {
        int me = out.size();
        out.add(prefix);
        kids.add(null);
        int n = s == null ? 0 : s.tuple().size();
        int[] mine = new int[n];
        for (int k = 0; k < n; k++) {
            int[] p = Arrays.copyOf(prefix, prefix.length + 1);
            p[prefix.length] = k;
            mine[k] = out.size();
            walk(s.tuple().get(k), p, out, kids);
        }
        kids.set(me, mine);
    }

    /** The value defined at {@code instruction} and {@code index}, or -1. */
    int valueAt(int instruction, long[] index) {
        int k = 0;
        for (long x : index) {
            k = child(instruction, k, x);
            if (k < 0) return -1;
        }
        return defined[instruction][k];
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    /** The slot of element {@code x} of slot {@code k} of {@code instruction}'s shape, or -1. */
    private int child(int instruction, int k, long x) {
        int[][] c = children[instruction];
        if (c == null || x < 0 || x >= c[k].length) return -1;
        return c[k][(int) x];
    }

    /** The slot of {@code index[from..]} below slot {@code k} of {@code instruction}'s shape, or -1. */
    private int descend(int instruction, int k, int[] index, int from) {
        for (int j = from; j < index.length && k >= 0; j++) k = child(instruction, k, index[j]);
        return k;
    }

    /** The slot of {@code index} in {@code instruction}'s indices, or -1. */
    int slot(int instruction, int[] index) {
        return descend(instruction, 0, index, 0);
    }

    private int newValue(int i, int k, boolean phi) {
        values.add(new FlowValue(i, indexOf[i][k], phi));
        int v = values.size() - 1;
        if (defined[i] == UNDEFINED) defined[i] = new int[] {v};
        else defined[i][k] = v;
        sets[i][k] = new int[] {v};
        return v;
    }

    /**
     * Updates until nothing changes. The queue is ordered by a depth-first order of the readers
     * (an instruction before those that read it, but across a while's loop), so each instruction
     * is updated after its inputs; it is queued again only when an input changed. Phis may shrink
     * as well as grow, so the number of updates is bounded: past it, the module is refused.
     */
    private void settle() {
        int n = g.size();
        int[] rank = readers.order();
        boolean[] queued = new boolean[n];
        boolean[] seen = new boolean[n];
        // Every instruction is queued at first: they are swept in rank order without a heap. One
        // queued again has been swept already, so it ranks below every one not swept yet: the heap
        // holds only those, and is emptied before the sweep goes on (the order a heap of all gave).
        int[] byRank = new int[n];
        Arrays.fill(byRank, -1);
        for (int i = 0; i < n; i++) {
            if (rank[i] < 0) continue;
            queued[i] = true;
            byRank[rank[i]] = i;
        }
        int[] heap = new int[n];
        int size = 0, swept = 0;
        long budget = 64L * n + 1024;
        for (int i = 0; i < n; i++) budget += 64L * readers.count(i);
        long updates = 0;
        while (true) {
            int i;
            if (size > 0) {
                i = heap[0];
                size = pop(heap, size, rank);
            } else {
                while (swept < n && byRank[swept] < 0) swept++;
                if (swept == n) break;
                i = byRank[swept++];
            }
            queued[i] = false;
            if ((++updates & 0x3ff) == 0) checkCancelled();
            if (updates > budget) {
                throw new Stopped(false, "the module's dataflow does not settle after " + budget + " updates (a loop of phis?)");
            }
            boolean changed = update(i);
            if (!changed && seen[i]) continue;
            seen[i] = true;
            for (int j = 0, m = readers.count(i); j < m; j++) {
                int r = readers.get(i, j);
                if (rank[r] < 0 || queued[r]) continue;
                queued[r] = true;
                size = push(heap, size, r, rank);
            }
        }
    }

    private static int push(int[] heap, int size, int x, int[] rank) {
        int k = size++;
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (rank[heap[parent]] <= rank[x]) break;
            heap[k] = heap[parent];
            k = parent;
        }
        heap[k] = x;
        return size;
    }

    private static int pop(int[] heap, int size, int[] rank) {
        int last = heap[--size];
        int k = 0;
        while (true) {
            int c = 2 * k + 1;
            if (c >= size) break;
            if (c + 1 < size && rank[heap[c + 1]] < rank[heap[c]]) c++;
            if (rank[last] <= rank[heap[c]]) break;
            heap[k] = heap[c];
            k = c;
        }
        if (size > 0) heap[k] = last;
        return size;
    }

    /** Which indices an instruction defines; the others are filled by {@link #update}. */
    private void define(int i) {
        int n = indexOf[i].length;
        switch (g.op[i]) {
            case PARAMETER -> {
                int c = g.computationOf[i];
                if (c == g.entry || g.callers.get(c).isEmpty()) {
                    for (int k = 0; k < n; k++) newValue(i, k, false);
                } else if (calledByWhile(c)) {
                    for (int k = 0; k < n; k++) newValue(i, k, true);
                }
                // a call's or a conditional's parameter forwards its caller's operand
            }
            case WHILE -> { for (int k = 0; k < n; k++) newValue(i, k, true); }
            case TUPLE -> newValue(i, 0, false);
            case COPY -> newValue(i, 0, false);
            case COPY_START -> {
                for (int k = 0; k < n; k++) if (!(indexOf[i][k].length >= 1 && indexOf[i][k][0] == 1)) newValue(i, k, false);
            }
            case GET_TUPLE_ELEMENT, FORWARD, DOMAIN, CALL, COPY_DONE -> { }
            case CONDITIONAL -> { for (int k = 0; k < n; k++) newValue(i, k, true); }
            default -> { for (int k = 0; k < n; k++) newValue(i, k, false); }
        }
    }

    private boolean calledByWhile(int c) {
        for (int caller : g.callers.get(c)) if (g.op[caller] == Op.WHILE) return true;
        return false;
    }

    /** The value set of {@code instruction} at {@code index[from..]}, or null when not known yet. */
    private int[] setAt(int instruction, int[] index, int from) {
        if (instruction < 0) return null;
        int k = descend(instruction, 0, index, from);
        return k < 0 ? null : sets[instruction][k];
    }

    private int[] setAt(int instruction, int[] index) {
        return setAt(instruction, index, 0);
    }

    /** The value set of {@code instruction} at {@code {first} + index}, or null when not known yet. */
    private int[] setBelow(int instruction, long first, int[] index) {
        if (instruction < 0) return null;
        int k = child(instruction, 0, first);
        k = k < 0 ? -1 : descend(instruction, k, index, 0);
        return k < 0 ? null : sets[instruction][k];
    }

    /** Recomputes the forwarded (and phi) indices of {@code i}; true when a set changed. */
    private boolean update(int i) {
        Op op = g.op[i];
        int[] ops = g.operands[i];
        boolean changed = false;
        for (int k = 0; k < indexOf[i].length; k++) {
            int[] idx = indexOf[i][k];
            int[] next = switch (op) {
                case GET_TUPLE_ELEMENT -> ops.length > 0 ? setBelow(ops[0], (int) g.ins[i].tupleIndex(), idx) : null;
                case TUPLE -> idx.length == 0 || idx[0] >= ops.length ? sets[i][k] : setAt(ops[idx[0]], idx, 1);
                case FORWARD, DOMAIN -> ops.length > 0 ? setAt(ops[0], idx) : null;
                case COPY -> idx.length == 0 || ops.length == 0 ? sets[i][k] : setAt(ops[0], idx);
                case COPY_DONE -> ops.length > 0 ? setBelow(ops[0], 0, idx) : null;
                case COPY_START -> idx.length >= 1 && idx[0] == 1 && ops.length > 0 ? setAt(ops[0], idx, 1) : sets[i][k];
                case CALL -> {
                    int[] c = g.called(i);
                    yield c.length > 0 && c[0] >= 0 ? setAt(g.roots[c[0]], idx) : null;
                }
                case WHILE -> phi(i, k, whileInputs(i, idx));
                case CONDITIONAL -> phi(i, k, conditionalInputs(i, idx));
                case PARAMETER -> parameter(i, k, idx);
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
            Op op = g.op[caller];
            if (op == Op.WHILE) {
                if (g.operands[caller].length > 0) in.add(setAt(g.operands[caller][0], idx));
                int body = g.whileParts(caller)[1];
                if (body >= 0) in.add(setAt(g.roots[body], idx));
            } else if (op == Op.CALL) {
                long number = g.ins[p].parameterNumber();
                if (number < g.operands[caller].length) in.add(setAt(g.operands[caller][(int) number], idx));
            } else if (op == Op.CONDITIONAL) {
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

    /** Whether value {@code v} is (still) a phi. */
    boolean isPhi(int v) {
        return values.get(v).phiDefined;
    }
}
