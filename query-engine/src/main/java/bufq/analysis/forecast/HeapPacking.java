package bufq.analysis.forecast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * XLA's packing of one temp allocation, as its buffer assigner does it: the heap simulator replays
 * the schedule (per step, the values defined there, in order of live range and id, then the values
 * that die there), each a heap event with its own time; a value that takes over the bytes of an
 * operand dying at its step, or that belongs to an already placed buffer, shares that buffer
 * instead of asking for its own. Then GlobalDecreasingSizeBestFitHeap places the buffers one by
 * one, in decreasing size (spatial order) or in decreasing duration (temporal order), each in the
 * smallest gap free for its whole event interval (best fit), else above them all; the assigner
 * keeps the smaller heap of the two orders, the spatial one on a tie.
 *
 * <p>The dump says neither which buffer a value shares nor why; {@link #sharing} reads it off
 * where it shows: a value at the offset of one still live when it starts, or of one dying at the
 * step it starts (two values placed apart could never meet so).
 */
final class HeapPacking {
    private HeapPacking() {}

    /** XLA:CPU's buffer alignment. */
    static final int ALIGNMENT = 64;

    /** The values of one allocation: ids, live ranges in steps, sizes, and per value the value it shares ({@code -1}: none). */
    record Buffers(long[] id, int[] start, int[] end, long[] size, int[] share) {
        int count() { return id.length; }
    }

    /** Offsets per value and the heap's size; null when the values cannot be replayed (a share that does not fit the rules). */
    record Packing(long[] offset, long heapSize) {}

    /**
     * Which value each shares, from the template's placement: the first value in schedule order
     * (live range start, end, id) at the same offset that is live at its start, or dies there.
     */
    static int[] sharing(long[] id, int[] start, int[] end, long[] offset, long[] size) {
        int n = id.length;
        Integer[] order = byDefinition(id, start, end);
        int[] share = new int[n];
        Arrays.fill(share, -1);
        Map<Long, List<Integer>> atOffset = new HashMap<>();   // earlier values by offset, in schedule order
        for (int b = 0; b < n; b++) {
            int vb = order[b];
            if (size[vb] == 0) continue;
            List<Integer> earlier = atOffset.computeIfAbsent(offset[vb], k -> new ArrayList<>());
            for (int va : earlier) {
                if (end[va] < start[vb]) continue;
                int root = va;
                while (share[root] >= 0) root = share[root];
                share[vb] = end[va] == start[vb] ? va : root;
                break;
            }
            earlier.add(vb);
        }
        return share;
    }

    private static Integer[] byDefinition(long[] id, int[] start, int[] end) {
        Integer[] order = new Integer[id.length];
        for (int k = 0; k < order.length; k++) order[k] = k;
        Arrays.sort(order, Comparator.<Integer>comparingInt(k -> start[k]).thenComparingInt(k -> end[k]).thenComparingLong(k -> id[k]));
        return order;
    }

    /** One buffer interval of the simulator: event times, size, whether it is placed itself, who shares it. */
    private static final class Interval {
        final int value;
        long size;
        int start, end = -1;
        boolean own = true;
        final List<Interval> colocations = new ArrayList<>();
        long offset = -1;

        Interval(int value) { this.value = value; }
    }

    /** The packing XLA gives these buffers: the better of the spatial and the temporal order. */
    static Packing pack(Buffers b) {
        Interval[] spatial = replay(b), temporal = replay(b);
        if (spatial == null) return null;
        long s = place(spatial, b, true), t = place(temporal, b, false);
        Interval[] best = t < s ? temporal : spatial;
        long[] offset = new long[b.count()];
        for (int k = 0; k < offset.length; k++) offset[k] = best[k] == null ? 0 : best[k].offset;
        return new Packing(offset, Math.min(s, t));
    }

    /** The heap events of the schedule: each value's interval in event time, shares as colocations. */
    private static Interval[] replay(Buffers b) {
        int n = b.count(), steps = 0;
        for (int k = 0; k < n; k++) steps = Math.max(steps, b.end()[k] + 1);
        Integer[] order = byDefinition(b.id(), b.start(), b.end());
        List<List<Integer>> defined = new ArrayList<>(), freed = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            defined.add(new ArrayList<>());
            freed.add(new ArrayList<>());
        }
        for (int k : order) {
            if (b.size()[k] == 0) continue;
            defined.get(b.start()[k]).add(k);
            freed.get(b.end()[k]).add(k);
        }
        Interval[] iv = new Interval[n];
        long[] group = b.size().clone();
        int time = 0;
        for (int i = 0; i < steps; i++) {
            for (int k : defined.get(i)) {
                int with = b.share()[k];
                Interval in = new Interval(k);
                iv[k] = in;
                if (with >= 0) {
                    Interval target = iv[with];
                    if (target == null) return null;
                    if (b.end()[with] == i && freed.get(i).remove((Integer) with)) target.end = time++;
                    long merged = Math.max(group[with], group[k]);
                    group[with] = merged;
                    group[k] = merged;
                    in.size = merged;
                    in.own = false;
                    target.colocations.add(in);
                } else {
                    in.size = group[k];
                }
                in.start = time++;
            }
            for (int k : freed.get(i)) iv[k].end = time++;
        }
        return iv;
    }

    /** Places the intervals in the given order, best fit; returns the heap's size. */
    private static long place(Interval[] iv, Buffers b, boolean spatial) {
        List<Interval> todo = new ArrayList<>();
        Map<Interval, List<Interval>> shared = new IdentityHashMap<>();
        Map<Interval, int[]> span = new IdentityHashMap<>();   // the shared buffer's first start, last end
        for (Interval in : iv) {
            if (in == null || !in.own) continue;
            todo.add(in);
            List<Interval> all = transitive(in);
            shared.put(in, all);
            int first = in.start, last = in.end;
            for (Interval x : all) {
                first = Math.min(first, x.start);
                last = Math.max(last, x.end);
            }
            span.put(in, new int[] {first, last});
        }
        Comparator<Interval> bySize = Comparator.comparingLong((Interval x) -> -x.size);
        Comparator<Interval> order = spatial
                ? bySize.thenComparingInt(x -> x.start - x.end).thenComparingLong(x -> b.id()[x.value])
                : Comparator.comparingInt((Interval x) -> span.get(x)[0] - span.get(x)[1]).thenComparing(bySize)
                        .thenComparingLong(x -> b.id()[x.value]);
        todo.sort(order);
        Chunks placed = new Chunks();
        long heap = 0;
        for (Interval in : todo) {
            List<Interval> all = shared.get(in);
            long max = 0;
            for (Interval x : all) max = Math.max(max, x.size);
            List<long[]> used = new ArrayList<>();
            Set<long[]> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Interval x : all) placed.overlapping(x.start, x.end, used, seen);
            long offset = bestFit(used, in.size, max);
            for (Interval x : all) {
                x.offset = offset;
                placed.add(new long[] {x.start, x.end, offset, max});
            }
            heap = Math.max(heap, offset + max);
        }
        return heap;
    }

    /** Placed chunks ({start, end, offset, size} in event time), found by time through blocks of it. */
    private static final class Chunks {
        private static final int BLOCK = 64;
        private final List<List<long[]>> blocks = new ArrayList<>();

        void add(long[] c) {
            for (int k = (int) (c[0] / BLOCK); k <= c[1] / BLOCK; k++) {
                while (blocks.size() <= k) blocks.add(new ArrayList<>());
                blocks.get(k).add(c);
            }
        }

        void overlapping(int start, int end, List<long[]> into, Set<long[]> seen) {
            for (int k = start / BLOCK; k <= end / BLOCK && k < blocks.size(); k++)
                for (long[] c : blocks.get(k)) if (c[0] <= end && c[1] >= start && seen.add(c)) into.add(c);
        }
    }

    /** The interval and every interval sharing it, directly or through another. */
    private static List<Interval> transitive(Interval in) {
        List<Interval> out = new ArrayList<>(List.of(in));
        for (int q = 0; q < out.size(); q++) out.addAll(out.get(q).colocations);
        return out;
    }

    /** The smallest free gap (by size, then offset) among the used chunks that holds {@code max} bytes; the top when none does. */
    private static long bestFit(List<long[]> used, long size, long max) {
        used.sort(Comparator.comparingLong(p -> p[2]));
        long bestOffset = -1, bestSize = Long.MAX_VALUE, freeStart = 0;
        List<long[]> free = new ArrayList<>();
        if (!used.isEmpty()) {
            long curOffset = used.get(0)[2], curEnd = used.get(0)[2] + used.get(0)[3];
            for (int q = 1; q < used.size(); q++) {
                long[] c = used.get(q);
                if (c[2] < curEnd) {
                    curEnd = Math.max(curEnd, c[2] + c[3]);
                } else {
                    if (curOffset - freeStart >= size) free.add(new long[] {freeStart, curOffset});
                    freeStart = Math.max(freeStart, aligned(curEnd));
                    curOffset = c[2];
                    curEnd = c[2] + c[3];
                }
            }
            if (curOffset - freeStart >= size) free.add(new long[] {freeStart, curOffset});
            freeStart = Math.max(freeStart, aligned(curEnd));
        }
        free.add(new long[] {freeStart, Long.MAX_VALUE});
        for (long[] f : free) {
            long start = aligned(f[0]);
            if (f[1] - max < start) continue;
            long s = f[1] - f[0];
            if (bestOffset < 0 || s < bestSize) {
                bestSize = s;
                bestOffset = start;
            }
        }
        return bestOffset;
    }

    private static long aligned(long x) {
        return (x + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }
}
