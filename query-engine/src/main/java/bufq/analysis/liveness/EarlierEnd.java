package bufq.analysis.liveness;

import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.MemorySpace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The peak of occupied bytes if one value's live range ended earlier, everything else unchanged:
 * what {@link Liveness#compute} gives for those edited inputs, found without a second sweep.
 *
 * <p>Ending value {@code v} at {@code end} instead of its range's end changes occupancy only at the
 * steps {@code end+1 .. rangeEnd}, and there only by the bytes of {@code v} that no other live value
 * of its allocation (and colour) covers. Those bytes change only where another value's range begins
 * or ends, so the window splits into a few runs, each with one drop; the new peak is the highest of
 * the unchanged steps before and after the window and, per run, its highest step minus its drop
 * ({@link Liveness#firstMaxStep}). The cost grows with the values sharing the allocation, not with
 * the module, so {@code why} over thousands of values stays fast.
 *
 * @param peakBytes occupied bytes at the new peak
 * @param peakTime  the first step holding them, or -1 when no value has a live range
 */
public record EarlierEnd(long peakBytes, int peakTime) {

    /**
     * The peak with {@code v}'s live range ending at {@code end} (inclusive; before its start means
     * no range left at all).
     *
     * @throws IllegalArgumentException when {@code v} has no live range or {@code end} is after its end
     */
    public static EarlierEnd of(HloModule m, HloValue v, int end) {
        if (!v.hasRange() || end > v.rangeEnd()) {
            throw new IllegalArgumentException("value " + v.id() + ": an earlier end must be within its live range");
        }
        Liveness l = Liveness.of(m);
        int steps = l.steps();
        int from = Math.max(Math.max(end + 1, v.rangeStart()), 0), to = Math.min(v.rangeEnd(), steps - 1);
        // A value of another memory space (VMEM, host offload) holds none of the device memory's bytes.
        boolean otherSpace = l.colors().size() > 1 && l.colors().contains(MemorySpace.DEVICE) && v.color() != MemorySpace.DEVICE;
        if (from > to || otherSpace) return new EarlierEnd(l.peakBytes(), l.peakTime());
        List<long[]> drops = drops(m, v, from, to);   // {first step, last step, bytes that go}
        int best = -1;
        long bestBytes = Long.MIN_VALUE;
        int t = l.firstMaxStep(0, from - 1);
        if (t >= 0) {
            best = t;
            bestBytes = l.occupiedBytes(t);
        }
        for (long[] d : drops) {
            int s = l.firstMaxStep((int) d[0], (int) d[1]);
            long bytes = l.occupiedBytes(s) - d[2];
            if (bytes > bestBytes) {
                best = s;
                bestBytes = bytes;
            }
        }
        t = l.firstMaxStep(to + 1, steps - 1);
        if (t >= 0 && l.occupiedBytes(t) > bestBytes) {
            best = t;
            bestBytes = l.occupiedBytes(t);
        }
        boolean anyRange = l.peakTime() >= 0 && (best >= 0 && (bestBytes > 0 || otherRanges(m, v, end)));
        return anyRange ? new EarlierEnd(bestBytes, best) : new EarlierEnd(0, -1);
    }

    /**
     * Runs of {@code [from, to]} with the bytes {@code v} stops holding there: its whole size when it
     * has no offset (the sweep counts such a value by its size), else its byte range minus what the
     * other live values of its allocation and colour cover, which changes only where one of them
     * starts or ends.
     */
    private static List<long[]> drops(HloModule m, HloValue v, int from, int to) {
        long o = v.offset(), size = v.size();
        if (o < 0 || size <= 0) return List.of(new long[] {from, to, Math.max(0, o < 0 ? size : 0)});
        long hi = Math.addExact(o, size);
        List<HloValue> others = new ArrayList<>();
        for (HloValue w : m.valuesIn(v.allocation())) {
            if (w == v || !w.hasRange() || w.color() != v.color() || w.offset() < 0 || w.size() <= 0) continue;
            if (w.offset() >= hi || w.offset() + w.size() <= o) continue;
            if (w.rangeEnd() < from || w.rangeStart() > to) continue;
            others.add(w);
        }
        if (others.isEmpty()) return List.of(new long[] {from, to, size});
        long[] points = new long[2 * others.size() + 2];
        long[] events = new long[2 * others.size()];
        int p = 0, e = 0;
        points[p++] = o;
        points[p++] = hi;
        for (int k = 0; k < others.size(); k++) {
            HloValue w = others.get(k);
            points[p++] = Math.max(o, w.offset());
            points[p++] = Math.min(hi, w.offset() + w.size());
            // removal at end + 1 sorts before an addition at the same step, as in the sweep
            events[e++] = ((long) Math.max(w.rangeStart(), from) << 33) | (1L << 32) | k;
            events[e++] = ((long) (Math.min(w.rangeEnd(), to) + 1) << 33) | k;
        }
        Arrays.sort(events);
        Coverage tree = new Coverage(new Coverage.Intervals(points));   // interval k + 1 is others[k]'s
        List<long[]> runs = new ArrayList<>();
        int runStart = from;
        for (int x = 0; x < events.length; ) {
            int t = (int) (events[x] >>> 33);
            if (t > runStart) runs.add(new long[] {runStart, t - 1, size - tree.covered()});
            for (; x < events.length && (int) (events[x] >>> 33) == t; x++) {
                int k = (int) events[x];
                if ((events[x] & (1L << 32)) != 0) tree.add(k + 1);
                else tree.remove(k + 1);
            }
            runStart = Math.max(runStart, t);
        }
        if (runStart <= to) runs.add(new long[] {runStart, to, size - tree.covered()});
        return runs;
    }

    /** Whether a value other than {@code v}, or {@code v} itself after the edit, still has a live step. */
    private static boolean otherRanges(HloModule m, HloValue v, int end) {
        int steps = Liveness.of(m).steps();
        if (Math.max(v.rangeStart(), 0) <= Math.min(end, steps - 1)) return true;
        for (HloValue w : m.values()) {
            if (w != v && w.hasRange() && Math.max(w.rangeStart(), 0) <= Math.min(w.rangeEnd(), steps - 1)) return true;
        }
        return false;
    }
}
