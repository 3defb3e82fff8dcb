package bufq.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The first {@code k} of a stream of items under a comparator, exactly as a stable sort of the whole
 * stream cut to {@code k} would give them: ties keep arrival order. A bounded max-heap ordered by
 * (comparator, arrival) holds the best {@code k} so far, so {@code order by live_bytes desc limit 5}
 * over a million steps keeps five entries and costs n log k, not a sort of a million.
 */
final class TopK<T> {
    private final Comparator<? super T> cmp;
    private final int k;
    private final Object[] heap;
    private final long[] seq;
    private int size;
    private long arrived;

    TopK(int k, Comparator<? super T> cmp) {
        this.k = k;
        this.cmp = cmp;
        this.heap = new Object[k];
        this.seq = new long[k];
    }

    /**
     * Whether {@code x} would be kept: not full yet, or strictly before the worst kept item (a tie
     * with it arrives later, so a stable sort puts it after). Lets a caller build the item only then.
     */
    boolean wouldKeep(T x) {
        return size < k || (k > 0 && cmp.compare(x, top()) < 0);
    }

    /** Offers the next item of the stream. */
    void offer(T x) {
        long s = arrived++;
        if (size < k) {
            heap[size] = x;
            seq[size] = s;
            up(size++);
        } else if (k > 0 && cmp.compare(x, top()) < 0) {
            heap[0] = x;
            seq[0] = s;
            down(0);
        }
    }

    /** The kept items, best first. */
    @SuppressWarnings("unchecked")
    List<T> result() {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> compare(a, b));
        List<T> out = new ArrayList<>(size);
        for (Integer i : order) out.add((T) heap[i]);
        return out;
    }

    @SuppressWarnings("unchecked")
    private T top() { return (T) heap[0]; }

    /** Total order: the comparator, then arrival. */
    @SuppressWarnings("unchecked")
    private int compare(int i, int j) {
        int c = cmp.compare((T) heap[i], (T) heap[j]);
        return c != 0 ? c : Long.compare(seq[i], seq[j]);
    }

    private void up(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (compare(i, parent) <= 0) return;   // max-heap: the worst on top
            swap(i, parent);
            i = parent;
        }
    }

    private void down(int i) {
        while (true) {
            int l = 2 * i + 1, r = l + 1, worst = i;
            if (l < size && compare(l, worst) > 0) worst = l;
            if (r < size && compare(r, worst) > 0) worst = r;
            if (worst == i) return;
            swap(i, worst);
            i = worst;
        }
    }

    private void swap(int i, int j) {
        Object h = heap[i];
        heap[i] = heap[j];
        heap[j] = h;
        long s = seq[i];
        seq[i] = seq[j];
        seq[j] = s;
    }
}
