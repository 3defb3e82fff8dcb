package bufq.analysis.liveness;

/**
 * A range-max tree over occupied bytes per step: the first step of a range with the most bytes in
 * O(log steps), so a what-if that changes a few runs of steps finds its new peak without a second
 * sweep. Immutable; reads the array it is given, which must not change.
 */
final class FirstMaxTree {
    private final long[] occupied;
    private final int steps;
    private final int leafBase;   // the first leaf: the smallest power of two holding every step
    private final int[] tree;     // first step of the most occupied bytes per node; leaves at leafBase

    FirstMaxTree(long[] occupied, int steps) {
        this.occupied = occupied;
        this.steps = steps;
        int base = 1;
        while (base < steps) base <<= 1;
        this.leafBase = base;
        tree = new int[2 * leafBase];
        for (int i = 0; i < leafBase; i++) tree[leafBase + i] = i < steps ? i : -1;
        for (int i = leafBase - 1; i > 0; i--) tree[i] = earlierOrMore(tree[2 * i], tree[2 * i + 1]);
    }

    /** The first step of {@code [from, to]} (cut to the steps) with the most occupied bytes, or -1 when it holds none. */
    int firstMaxStep(int from, int to) {
        from = Math.max(from, 0);
        to = Math.min(to, steps - 1);
        if (from > to) return -1;
        int left = -1, right = -1;
        for (int l = from + leafBase, r = to + leafBase + 1; l < r; l >>= 1, r >>= 1) {
            if ((l & 1) != 0) left = earlierOrMore(left, tree[l++]);
            if ((r & 1) != 0) right = earlierOrMore(tree[--r], right);
        }
        return earlierOrMore(left, right);
    }

    /** Of two steps, {@code a} before {@code b} (or -1 for none), the one with more occupied bytes; {@code a} on a tie. */
    private int earlierOrMore(int a, int b) {
        if (a < 0) return b;
        if (b < 0) return a;
        return occupied[b] > occupied[a] ? b : a;
    }
}
