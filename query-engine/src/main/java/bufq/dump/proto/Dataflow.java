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
    /** Per instruction and index slot: the slots of that index's elements (null for an array shape). */
    private final int[][][] children;
    /** Per instruction and index slot: the value defined there, or -1. */
    private final int[][] defined;
    /** Per computation: its parameter instructions. */
    private final int[][] parametersOf;
    /** Per instruction: who else reads its sets besides its users (callees' parameters, callers of its computation). */
    private final int[][] readers;
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
            Messages.ShapeP shape = g.ins[i].shape();
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
        parametersOf = parametersByComputation();
        for (int i = 0; i < n; i++) {
            if (g.fusionBody[g.computationOf[i]]) continue;
            define(i);
        }
        readers = readers();
        settle();
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < sets[i].length; k++) {
                if (sets[i][k] == null) sets[i][k] = new int[0];
                for (int v : sets[i][k]) values.get(v).live = true;
            }
        }
        positionsAndUses();
    }

    private void checkCancelled() {
        if (caller.isInterrupted()) throw new Stopped(true, "cancelled");
    }

    /** Every index of {@code s} in preorder into {@code out}, and each index's element slots into {@code kids}. */
    private static void walk(Messages.ShapeP s, int[] prefix, List<int[]> out, List<int[]> kids) {
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
        values.add(new Value(i, indexOf[i][k], phi));
        int v = values.size() - 1;
        if (defined[i] == UNDEFINED) defined[i] = new int[] {v};
        else defined[i][k] = v;
        sets[i][k] = new int[] {v};
        return v;
    }

    private int[][] parametersByComputation() {
        int nc = g.roots.length;
        int[] count = new int[nc];
        for (int i = 0; i < g.size(); i++) if (g.opcode(i).equals("parameter")) count[g.computationOf[i]]++;
        int[][] out = new int[nc][];
        for (int c = 0; c < nc; c++) out[c] = new int[count[c]];
        int[] filled = new int[nc];
        for (int i = 0; i < g.size(); i++) {
            if (g.opcode(i).equals("parameter")) out[g.computationOf[i]][filled[g.computationOf[i]]++] = i;
        }
        return out;
    }

    /**
     * Who reads an instruction's sets besides its users, as {@link #update} reads them: a call's
     * operand is read by the callee's parameter of its number, a while's by its body's and
     * condition's parameters, a conditional's by its branch's; a computation's root by the
     * instructions calling it and, for a while body, by the body's and condition's parameters.
     */
    private int[][] readers() {
        int n = g.size();
        Edges e = new Edges(n);
        for (int u = 0; u < n; u++) {
            if (g.fusionBody[g.computationOf[u]]) continue;
            int[] ops = g.operands[u];
            switch (g.opcode(u)) {
                case "call" -> {
                    for (int c : g.called(u)) {
                        if (c < 0) continue;
                        for (int p : parametersOf[c]) {
                            long number = g.ins[p].parameterNumber();
                            if (number >= 0 && number < ops.length) e.add(ops[(int) number], p);
                        }
                    }
                }
                case "while" -> {
                    if (ops.length == 0) continue;
                    for (int c : g.whileParts(u)) if (c >= 0) for (int p : parametersOf[c]) e.add(ops[0], p);
                }
                case "conditional" -> {
                    int[] branches = g.called(u);
                    for (int b = 0; b < branches.length && b + 1 < ops.length; b++) {
                        if (branches[b] >= 0) for (int p : parametersOf[branches[b]]) e.add(ops[b + 1], p);
                    }
                }
                default -> { }
            }
        }
        for (int c = 0; c < g.roots.length; c++) {
            int r = g.roots[c];
            if (r < 0) continue;
            for (int caller : g.callers.get(c)) {
                e.add(r, caller);
                if (!g.opcode(caller).equals("while")) continue;
                int[] parts = g.whileParts(caller);
                if (parts[1] != c) continue;
                for (int part : parts) if (part >= 0) for (int p : parametersOf[part]) e.add(r, p);
            }
        }
        return e.build();
    }

    /** Edges between instruction numbers, gathered then laid out per source. */
    private static final class Edges {
        private final int n;
        private int[] from = new int[16], to = new int[16];
        private int size;

        Edges(int n) { this.n = n; }

        void add(int a, int b) {
            if (a < 0 || b < 0) return;
            if (size == from.length) {
                from = Arrays.copyOf(from, size * 2);
                to = Arrays.copyOf(to, size * 2);
            }
            from[size] = a;
            to[size++] = b;
        }

        int[][] build() {
            int[] count = new int[n];
            for (int k = 0; k < size; k++) count[from[k]]++;
            int[][] out = new int[n][];
            for (int i = 0; i < n; i++) out[i] = count[i] == 0 ? NONE : new int[count[i]];
            int[] filled = new int[n];
            for (int k = 0; k < size; k++) out[from[k]][filled[from[k]]++] = to[k];
            return out;
        }
    }

    private static final int[] NONE = new int[0];

    /** The instructions that read {@code i}'s sets: its users, then its other {@link #readers}. */
    private int readerCount(int i) { return g.users[i].length + readers[i].length; }

    private int reader(int i, int j) {
        int u = g.users[i].length;
        return j < u ? g.users[i][j] : readers[i][j - u];
    }

    /**
     * Updates until nothing changes. The queue is ordered by a depth-first order of the readers
     * (an instruction before those that read it, but across a while's loop), so each instruction
     * is updated after its inputs; it is queued again only when an input changed. Phis may shrink
     * as well as grow, so the number of updates is bounded: past it, the module is refused.
     */
    private void settle() {
        int n = g.size();
        int[] rank = order();
        boolean[] queued = new boolean[n];
        boolean[] seen = new boolean[n];
        int[] heap = new int[n];
        int size = 0;
        for (int i = 0; i < n; i++) {
            if (rank[i] < 0) continue;
            queued[i] = true;
            size = push(heap, size, i, rank);
        }
        long budget = 64L * n + 1024;
        for (int i = 0; i < n; i++) budget += 64L * readerCount(i);
        long updates = 0;
        while (size > 0) {
            int i = heap[0];
            size = pop(heap, size, rank);
            queued[i] = false;
            if ((++updates & 0x3ff) == 0) checkCancelled();
            if (updates > budget) {
                throw new Stopped(false, "the module's dataflow does not settle after " + budget + " updates (a loop of phis?)");
            }
            boolean changed = update(i);
            if (!changed && seen[i]) continue;
            seen[i] = true;
            for (int j = 0, m = readerCount(i); j < m; j++) {
                int r = reader(i, j);
                if (rank[r] < 0 || queued[r]) continue;
                queued[r] = true;
                size = push(heap, size, r, rank);
            }
        }
    }

    /** A rank per instruction: reverse post-order of a depth-first walk along the readers; -1 in fusion bodies. */
    private int[] order() {
        int n = g.size();
        int[] rank = new int[n];
        Arrays.fill(rank, -1);
        byte[] state = new byte[n];   // 0 not reached, 1 on the stack, 2 done
        int[] stack = new int[n], next = new int[n];
        int pos = n;
        for (int s = 0; s < n; s++) {
            if (state[s] != 0) continue;
            if (g.fusionBody[g.computationOf[s]]) {
                state[s] = 2;
                continue;
            }
            int top = 0;
            stack[0] = s;
            next[0] = 0;
            state[s] = 1;
            while (top >= 0) {
                int x = stack[top];
                if (next[top] < readerCount(x)) {
                    int y = reader(x, next[top]++);
                    if (state[y] == 0 && !g.fusionBody[g.computationOf[y]]) {
                        state[y] = 1;
                        stack[++top] = y;
                        next[top] = 0;
                    }
                } else {
                    state[x] = 2;
                    rank[x] = --pos;
                    top--;
                }
            }
        }
        return rank;
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
        String op = g.opcode(i);
        int[] ops = g.operands[i];
        boolean changed = false;
        for (int k = 0; k < indexOf[i].length; k++) {
            int[] idx = indexOf[i][k];
            int[] next = switch (op) {
                case "get-tuple-element" -> ops.length > 0 ? setBelow(ops[0], (int) g.ins[i].tupleIndex(), idx) : null;
                case "tuple" -> idx.length == 0 || idx[0] >= ops.length ? sets[i][k] : setAt(ops[idx[0]], idx, 1);
                case "bitcast", "domain", "add-dependency", "opt-barrier", "optimization-barrier" -> ops.length > 0 ? setAt(ops[0], idx) : null;
                case "copy" -> idx.length == 0 || ops.length == 0 ? sets[i][k] : setAt(ops[0], idx);
                case "copy-done" -> ops.length > 0 ? setBelow(ops[0], 0, idx) : null;
                case "copy-start" -> idx.length >= 1 && idx[0] == 1 && ops.length > 0 ? setAt(ops[0], idx, 1) : sets[i][k];
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
            if ((i & 0xfff) == 0) checkCancelled();
            for (int k = 0; k < sets[i].length; k++) {
                for (int v : sets[i][k]) {
                    Value val = values.get(v);
                    int[] pos = {i, k};
                    if (val.instruction == i && Arrays.equals(val.index, indexOf[i][k])) val.positions.add(0, pos);
                    else val.positions.add(pos);
                }
            }
        }
        long[][] reads = operandReads();
        long[][] deepReads = deepReads(reads);
        int seen = 0;
        int[] roots = new int[4];
        for (Value v : values) {
            if (!v.live) continue;
            // The roots among the value's positions: few (one per computation at most).
            int nRoots = 0;
            for (int[] p : v.positions) {
                if (!g.isRoot(p[0]) || contains(roots, nRoots, p[0])) continue;
                if (nRoots == roots.length) roots = Arrays.copyOf(roots, nRoots * 2);
                roots[nRoots++] = p[0];
            }
            for (int[] p : v.positions) {
                if ((++seen & 0xfff) == 0) checkCancelled();
                int at = p[0];
                int[] idx = indexOf[at][p[1]];
                // Below the top index only readers of whole operands (or roots) can use it: the
                // get-tuple-elements of a wide tuple need not be looked at for each of its elements.
                for (long r : idx.length == 0 ? reads[at] : deepReads[at]) {
                    int user = (int) (r >>> 32), o = (int) r;
                    if (mayUse(user, idx) || contains(roots, nRoots, user)) v.uses.add(new Use(user, o, idx));
                }
            }
        }
    }

    private static boolean contains(int[] a, int n, int x) {
        for (int k = 0; k < n; k++) if (a[k] == x) return true;
        return false;
    }

    /**
     * Per instruction: every place it is read, {@code user << 32 | operand number}, users in module
     * order and each user's operands in order (what looping over its users' operands gives, once).
     */
    private long[][] operandReads() {
        int n = g.size();
        int[] count = new int[n];
        for (int u = 0; u < n; u++) for (int o : g.operands[u]) if (o >= 0) count[o]++;
        long[][] out = new long[n][];
        for (int i = 0; i < n; i++) out[i] = count[i] == 0 ? NO_READS : new long[count[i]];
        int[] filled = new int[n];
        for (int u = 0; u < n; u++) {
            int[] ops = g.operands[u];
            for (int o = 0; o < ops.length; o++) if (ops[o] >= 0) out[ops[o]][filled[ops[o]]++] = (long) u << 32 | o;
        }
        return out;
    }

    private static final long[] NO_READS = new long[0];

    /** {@code reads} less those that cannot use an operand's inner index: a get-tuple-element's, a copy's, a tuple's, a domain's (unless a root). */
    private long[][] deepReads(long[][] reads) {
        long[][] out = new long[reads.length][];
        int[] deep = {0};
        for (int i = 0; i < reads.length; i++) {
            int n = 0;
            for (long r : reads[i]) if (mayUse((int) (r >>> 32), deep) || g.isRoot((int) (r >>> 32))) n++;
            if (n == reads[i].length) {
                out[i] = reads[i];
                continue;
            }
            long[] kept = n == 0 ? NO_READS : new long[n];
            n = 0;
            for (long r : reads[i]) if (mayUse((int) (r >>> 32), deep) || g.isRoot((int) (r >>> 32))) kept[n++] = r;
            out[i] = kept;
        }
        return out;
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
