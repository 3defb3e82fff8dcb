package bufq.analysis.liveness;

import bufq.model.Lazy;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Static interval index over inclusive {@code [start, end]} ranges: stabbing and overlap queries in
 * O(log n + k), no scan of every interval.
 *
 * <p>A centred interval tree: each node has a centre point and holds the intervals containing it,
 * once sorted by start and once by end (descending); intervals wholly before the centre go left,
 * wholly after go right. A query walks at most two root-to-leaf paths and reads each node's lists
 * only as far as they overlap, so its cost is the depth plus the answer. (An implicit tree sorted
 * by start with a max-end per subtree, the earlier layout, degrades to a scan of half the module
 * when a few values live from step 0 to the end, as entry parameters do.)
 *
 * <p>The tree is built once it pays: the first {@link #SCANS} queries read every range instead (a
 * million ranges: a few milliseconds each, where the tree takes a second to build). A batch
 * {@code summary} asks once or twice; an interactive session soon has its tree. Safe to share
 * between threads.
 */
public final class IntervalIndex {
    /** Sets of at most this many intervals are leaves, scanned linearly. */
    private static final int LEAF = 8;
    /** Queries answered by a scan of every range before the tree is built. */
    static final int SCANS = 8;

    private final int count;
    private final Lazy<Tree> tree;
    private final AtomicInteger queries = new AtomicInteger();
    // The ranges, for the scans; dropped once the tree holds them.
    private volatile int[] starts, ends;

    /** @param starts,ends ranges per id (id = array position); entries with end &lt; start are skipped */
    public IntervalIndex(int[] starts, int[] ends) {
        this(starts.clone(), ends.clone(), ranged(starts, ends));
    }

    /** An index over {@code starts} and {@code ends} themselves, which nothing changes after. */
    static IntervalIndex adopting(int[] starts, int[] ends) {
        return new IntervalIndex(starts, ends, ranged(starts, ends));
    }

    private static int ranged(int[] s, int[] e) {
        int n = 0;
        for (int i = 0; i < s.length; i++) if (e[i] >= s[i]) n++;
        return n;
    }

    private IntervalIndex(int[] s, int[] e, int count) {
        this.count = count;
        this.starts = s;
        this.ends = e;
        this.tree = new Lazy<>(() -> {
            Tree t = new Tree(s, e, count);
            this.starts = null;
            this.ends = null;
            return t;
        });
    }

    public int size() { return count; }

    private Tree tree() { return tree.get(); }

    /**
     * The ids overlapping {@code [from, to]} in ascending order by a scan of every range, or null
     * when the tree answers this query (built now if this is the first past {@link #SCANS}).
     */
    private int[] scan(int from, int to) {
        int[] s = starts, e = ends;
        if (s == null || queries.incrementAndGet() > SCANS) return null;
        int k = 0;
        int[] ids = new int[64];
        for (int i = 0; i < s.length; i++) {
            if (s[i] <= to && e[i] >= from && e[i] >= s[i]) {
                if (k == ids.length) ids = Arrays.copyOf(ids, k * 2);
                ids[k++] = i;
            }
        }
        return ids.length == k ? ids : Arrays.copyOf(ids, k);
    }

    /** Calls {@code sink} with the id of every interval that overlaps {@code [from, to]}, in no particular order; none when {@code from > to}. */
    public void overlapping(int from, int to, IntConsumer sink) {
        if (from > to) return;
        int[] scanned = scan(from, to);
        if (scanned != null) {
            for (int id : scanned) sink.accept(id);
            return;
        }
        Hits h = tree().collect(from, to);
        for (int i = 0; i < h.n; i++) sink.accept(h.ids[i]);
    }

    /** Ids of the intervals containing {@code t}. */
    public int[] at(int t) {
        return during(t, t);
    }

    /** Ids of the intervals overlapping {@code [from, to]}, in ascending id order; none when {@code from > to}. */
    public int[] during(int from, int to) {
        if (from > to) return new int[0];
        int[] scanned = scan(from, to);
        if (scanned != null) return scanned;
        Tree t = tree();
        Hits h = t.collect(from, to);
        int k = h.n;
        int[] ids = h.ids.length == k ? h.ids : Arrays.copyOf(h.ids, k);
        if (k <= 64) {
            Arrays.sort(ids);
            return ids;
        }
        // Ascending order through a bit set over all ids: O(n/64 + k) instead of a sort.
        long[] bits = new long[(t.idLimit >>> 6) + 1];
        for (int id : ids) bits[id >>> 6] |= 1L << id;
        int j = 0;
        for (int w = 0; w < bits.length; w++) {
            long b = bits[w];
            while (b != 0) {
                ids[j++] = (w << 6) + Long.numberOfTrailingZeros(b);
                b &= b - 1;
            }
        }
        return ids;
    }

    /** A growable list of ids. */
    private static final class Hits {
        int[] ids = new int[64];
        int n;

        void add(int id) {
            if (n == ids.length) ids = Arrays.copyOf(ids, n * 2);
            ids[n++] = id;
        }

        void addAll(int[] src, int off, int len) {
            if (n + len > ids.length) ids = Arrays.copyOf(ids, Math.max(n + len, n * 2));
            System.arraycopy(src, off, ids, n, len);
            n += len;
        }
    }

    /** The built tree: node arrays plus each node's intervals by start and by end. */
    private static final class Tree {
        final int total, idLimit;
        // Per node: centre, children (-1 none), slice [off, off + len) of the lists; a leaf has centre unused.
        int[] center, left, right, off, len;
        boolean[] leaf;
        int nodes;
        final int[] byStartId, byStartKey, byEndId, byEndKey;

        Tree(int[] starts, int[] ends, int n) {
            this.total = n;
            this.idLimit = starts.length;
            long[] s = new long[n], e = new long[n];
            for (int i = 0, j = 0; i < starts.length; i++) {
                if (ends[i] < starts[i]) continue;
                s[j] = ((long) starts[i] << 32) | (i & 0xffffffffL);
                // By end descending: sort the negated end; ties by id ascending.
                e[j] = ((long) ~ends[i] << 32) | (i & 0xffffffffL);
                j++;
            }
            Arrays.sort(s);
            Arrays.sort(e);
            int[] sId = new int[n], eId = new int[n];
            for (int i = 0; i < n; i++) { sId[i] = (int) s[i]; eId[i] = (int) e[i]; }
            s = e = null;
            int cap = Math.max(16, n / 4);
            center = new int[cap]; left = new int[cap]; right = new int[cap];
            off = new int[cap]; len = new int[cap]; leaf = new boolean[cap];
            byStartId = new int[n]; byStartKey = new int[n]; byEndId = new int[n]; byEndKey = new int[n];
            if (n > 0) build(starts, ends, sId, eId, 0, n, new int[n], new int[n], new int[]{0});
            center = Arrays.copyOf(center, nodes); left = Arrays.copyOf(left, nodes); right = Arrays.copyOf(right, nodes);
            off = Arrays.copyOf(off, nodes); len = Arrays.copyOf(len, nodes); leaf = Arrays.copyOf(leaf, nodes);
        }

        private int newNode() {
            if (nodes == center.length) {
                int cap = nodes * 2;
                center = Arrays.copyOf(center, cap); left = Arrays.copyOf(left, cap); right = Arrays.copyOf(right, cap);
                off = Arrays.copyOf(off, cap); len = Arrays.copyOf(len, cap); leaf = Arrays.copyOf(leaf, cap);
            }
            return nodes++;
        }

        /**
         * Builds the node for the intervals {@code sId[lo..hi)} (by start) and {@code eId[lo..hi)}
         * (by end, same set), laying its own lists at {@code pos[0]}. Returns the node number.
         */
        private int build(int[] starts, int[] ends, int[] sId, int[] eId, int lo, int hi, int[] tmpS, int[] tmpE, int[] pos) {
            int node = newNode();
            left[node] = right[node] = -1;
            int n = hi - lo;
            if (n <= LEAF) {
                leaf[node] = true;
                off[node] = pos[0];
                len[node] = n;
                for (int i = lo; i < hi; i++, pos[0]++) {
                    byStartId[pos[0]] = sId[i];
                    byStartKey[pos[0]] = starts[sId[i]];
                    byEndKey[pos[0]] = ends[sId[i]];
                }
                return node;
            }
            int c = starts[sId[lo + n / 2]];
            center[node] = c;
            // Stable three-way partition of both lists: left (end < c), middle, right (start > c).
            int nl = 0, nm = 0, nr = 0;
            for (int i = lo; i < hi; i++) {
                int id = sId[i];
                if (ends[id] < c) sId[lo + nl++] = id;
                else if (starts[id] > c) tmpS[lo + nr++] = id;
                else {
                    byStartId[pos[0] + nm] = id;
                    byStartKey[pos[0] + nm] = starts[id];
                    nm++;
                }
            }
            int el = 0, em = 0, er = 0;
            for (int i = lo; i < hi; i++) {
                int id = eId[i];
                if (ends[id] < c) eId[lo + el++] = id;
                else if (starts[id] > c) tmpE[lo + er++] = id;
                else {
                    byEndId[pos[0] + em] = id;
                    byEndKey[pos[0] + em] = ends[id];
                    em++;
                }
            }
            off[node] = pos[0];
            len[node] = nm;
            pos[0] += nm;
            // Right parts follow the left parts in place.
            System.arraycopy(tmpS, lo, sId, lo + nl, nr);
            System.arraycopy(tmpE, lo, eId, lo + el, er);
            // Children first, then the stores: building may grow (replace) the node arrays.
            int l = nl > 0 ? build(starts, ends, sId, eId, lo, lo + nl, tmpS, tmpE, pos) : -1;
            int r = nr > 0 ? build(starts, ends, sId, eId, lo + nl, lo + nl + nr, tmpS, tmpE, pos) : -1;
            left[node] = l;
            right[node] = r;
            return node;
        }

        /** The ids overlapping {@code [from, to]}, in no particular order. */
        Hits collect(int from, int to) {
            Hits out = new Hits();
            if (total == 0 || from > to) return out;
            int[] stack = new int[64];
            int sp = 0;
            stack[sp++] = 0;
            while (sp > 0) {
                int node = stack[--sp];
                if (sp + 2 > stack.length) stack = Arrays.copyOf(stack, stack.length * 2);
                int o = off[node], l = len[node];
                if (leaf[node]) {
                    for (int i = o; i < o + l; i++) if (byStartKey[i] <= to && byEndKey[i] >= from) out.add(byStartId[i]);
                    continue;
                }
                int c = center[node];
                if (to < c) {
                    for (int i = o; i < o + l && byStartKey[i] <= to; i++) out.add(byStartId[i]);
                    if (left[node] >= 0) stack[sp++] = left[node];
                } else if (from > c) {
                    for (int i = o; i < o + l && byEndKey[i] >= from; i++) out.add(byEndId[i]);
                    if (right[node] >= 0) stack[sp++] = right[node];
                } else {
                    out.addAll(byStartId, o, l);
                    if (from < c && left[node] >= 0) stack[sp++] = left[node];    // left ends before c
                    if (to > c && right[node] >= 0) stack[sp++] = right[node];    // right starts after c
                }
            }
            return out;
        }
    }
}
