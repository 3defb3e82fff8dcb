package bufq.dump.proto;

import java.util.Arrays;

/**
 * Who reads an instruction's value sets, as {@link Dataflow} forwards them: its users, and across
 * computations a callee's parameters and a root's callers; and the order its worklist visits them
 * in, an instruction before those that read it.
 */
final class FlowReaders {
    private final Graph g;
    /** Per instruction: who else reads its sets besides its users. */
    private final int[][] readers;

    FlowReaders(Graph g) {
        this.g = g;
        this.readers = readers(g, parametersByComputation(g));
    }

    private static int[][] parametersByComputation(Graph g) {
        int nc = g.roots.length;
        int[] count = new int[nc];
        for (int i = 0; i < g.size(); i++) if (g.op[i] == Op.PARAMETER) count[g.computationOf[i]]++;
        int[][] out = new int[nc][];
        for (int c = 0; c < nc; c++) out[c] = new int[count[c]];
        int[] filled = new int[nc];
        for (int i = 0; i < g.size(); i++) {
            if (g.op[i] == Op.PARAMETER) out[g.computationOf[i]][filled[g.computationOf[i]]++] = i;
        }
        return out;
    }

    /**
     * Who reads an instruction's sets besides its users, as {@link Dataflow} reads them: a call's
     * operand is read by the callee's parameter of its number, a while's by its body's and
     * condition's parameters, a conditional's by its branch's; a computation's root by the
     * instructions calling it and, for a while body, by the body's and condition's parameters.
     */
    private static int[][] readers(Graph g, int[][] parametersOf) {
        int n = g.size();
        Edges e = new Edges(n);
        for (int u = 0; u < n; u++) {
            if (g.fusionBody[g.computationOf[u]]) continue;
            int[] ops = g.operands[u];
            switch (g.op[u]) {
                case CALL -> {
                    for (int c : g.called(u)) {
                        if (c < 0) continue;
                        for (int p : parametersOf[c]) {
                            long number = g.ins[p].parameterNumber();
                            if (number >= 0 && number < ops.length) e.add(ops[(int) number], p);
                        }
                    }
                }
                case WHILE -> {
                    if (ops.length == 0) continue;
                    for (int c : g.whileParts(u)) if (c >= 0) for (int p : parametersOf[c]) e.add(ops[0], p);
                }
                case CONDITIONAL -> {
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
                if (g.op[caller] != Op.WHILE) continue;
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

    /** How many instructions read {@code i}'s sets: its users, then its other readers. */
    int count(int i) { return g.users[i].length + readers[i].length; }

    /** The {@code j}-th instruction that reads {@code i}'s sets. */
    int get(int i, int j) {
        int u = g.users[i].length;
        return j < u ? g.users[i][j] : readers[i][j - u];
    }

    /** A rank per instruction: reverse post-order of a depth-first walk along the readers; -1 in fusion bodies. */
    int[] order() {
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
                if (next[top] < count(x)) {
                    int y = get(x, next[top]++);
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
}
