package bufq.analysis.liveness;

import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.ParallelPasses;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-value inputs of the sweep, one array entry per value (all arrays the same length). Arrays
 * are the caller's: {@link #of(HloModule)} returns fresh copies; {@link Liveness#compute} sweeps them that may be edited.
 *
 * @param allocation  allocation number holding the value
 * @param color       colour (memory space)
 * @param offset      offset in the allocation, negative when unknown (the value then counts its size)
 * @param size        assigned bytes (the dump's {@code size=})
 * @param logicalSize logical bytes ({@code ShapeUtil::ByteSizeOf} of the shape)
 * @param start       first live step; a value without a live range has {@code end < start}
 * @param end         last live step, inclusive
 */
public record SweepInputs(int[] allocation, int[] color, long[] offset, long[] size, long[] logicalSize,
                     int[] start, int[] end) {
    public SweepInputs {
        int n = allocation.length;
        if (color.length != n || offset.length != n || size.length != n || logicalSize.length != n
                || start.length != n || end.length != n) {
            throw new IllegalArgumentException("liveness inputs of different lengths");
        }
    }

    /** The module's values as inputs, in {@link HloModule#values()} order (fresh arrays). */
    public static SweepInputs of(HloModule m) {
        return of(m, new boolean[m.values().size()]);
    }

    /** {@link #of(HloModule)}, and in {@code indexPrinted} which values print their index (one pass for both). */
    static SweepInputs of(HloModule m, boolean[] indexPrinted) {
        List<HloValue> vs = m.values();
        int n = vs.size();
        SweepInputs in = new SweepInputs(new int[n], new int[n], new long[n], new long[n], new long[n], new int[n], new int[n]);
        ParallelPasses.run(n, (from, to) -> {
            for (int i = from; i < to; i++) {
                HloValue v = vs.get(i);
                in.allocation[i] = v.allocation();
                in.color[i] = v.color();
                in.offset[i] = v.offset();
                in.size[i] = v.size();
                in.logicalSize[i] = v.logicalSize();
                in.start[i] = v.hasRange() ? v.rangeStart() : 0;
                in.end[i] = v.hasRange() ? v.rangeEnd() : -1;
                indexPrinted[i] = v.indexPrinted();
            }
        });
        return in;
    }

    int count() { return allocation.length; }

    /**
     * Per value (in {@link HloModule#values()} order), the logical bytes of the instruction that
     * defines it, its whole output shape, as XLA's {@code ShapeUtil::ByteSizeOf(instruction->shape())}
     * weighs it: the value's own size, except that an element of a tuple-shaped instruction (its index
     * printed) weighs the tuple's table, the size of the instruction's {@code {}} value. Taken from
     * the allocation section only, so the Used values section (where instructions print) stays unread.
     */
    static long[] instructionBytes(HloModule m, long[] logicalSize, boolean[] indexPrinted) {
        List<HloValue> vs = m.values();
        long[] out = logicalSize.clone();
        // The tuples' own tables by instruction name: the few values an element looks up (a lookup in
        // the module's index of every value by name would build that index for this alone).
        Map<String, Long> tuples = new HashMap<>();
        boolean elements = false;
        for (int i = 0; i < out.length; i++) {
            if (!indexPrinted[i]) continue;
            HloValue v = vs.get(i);
            if (!v.index().equals("{}")) elements = true;
            else if (v.shape() != null && v.shape().isTuple()) tuples.put(v.name(), v.logicalSize());
        }
        for (int i = 0; elements && i < out.length; i++) {
            if (!indexPrinted[i]) continue;
            HloValue v = vs.get(i);
            if (v.index().equals("{}")) continue;
            Long table = tuples.get(v.name());
            if (table != null) out[i] = table;
        }
        return out;
    }
}
