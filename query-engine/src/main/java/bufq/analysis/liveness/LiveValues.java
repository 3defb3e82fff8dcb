package bufq.analysis.liveness;

import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.MemorySpace;
import bufq.model.ParallelPasses;

import java.util.ArrayList;
import java.util.List;

/**
 * The values of a module live at a step or during steps, by its {@link IntervalIndex} (made on
 * first use and kept with the module), in dump order.
 */
public final class LiveValues {
    private LiveValues() {}

    /** Values live at {@code t}. */
    public static List<HloValue> at(HloModule m, int t) { return during(m, t, t); }

    /**
     * Values of the device memory (colour 0) live at {@code t}: what a figure compared with a
     * device's memory counts. Every value live then when the module has one memory space.
     */
    public static List<HloValue> inDevice(HloModule m, int t) {
        List<HloValue> all = at(m, t);
        List<Integer> colors = MemorySpace.colors(m);
        if (colors.size() < 2 || !colors.contains(MemorySpace.DEVICE)) return all;
        List<HloValue> out = new ArrayList<>(all.size());
        for (HloValue v : all) if (v.color() == MemorySpace.DEVICE) out.add(v);
        return out;
    }

    /** Values whose range overlaps {@code [from, to]}. */
    public static List<HloValue> during(HloModule m, int from, int to) {
        int[] positions = positions(m, from, to);
        List<HloValue> values = m.values();
        List<HloValue> out = new ArrayList<>(positions.length);
        for (int i : positions) out.add(values.get(i));
        return out;
    }

    /** Positions (in {@link HloModule#values()}) of the values live during {@code [from, to]}. */
    public static int[] positions(HloModule m, int from, int to) {
        return m.derived(IntervalIndex.class, LiveValues::index).during(from, to);
    }

    /**
     * Gives {@code m} its index over ranges already read out of its values ({@code starts[i]}, or 0,
     * and {@code ends[i]}, or -1 without a range, in values order), unless it has one: the sweep
     * reads them for itself, and the index's own pass over every value cost a batch summary's
     * claimed-peak note 14 ms. The arrays must not change after.
     */
    static void offer(HloModule m, int[] starts, int[] ends) {
        m.derived(IntervalIndex.class, x -> IntervalIndex.adopting(starts, ends));
    }

    private static IntervalIndex index(HloModule m) {
        List<HloValue> vs = m.values();
        int n = vs.size();
        int[] starts = new int[n];
        int[] ends = new int[n];
        ParallelPasses.run(n, (from, to) -> {
            for (int i = from; i < to; i++) {
                HloValue v = vs.get(i);
                starts[i] = v.hasRange() ? v.rangeStart() : 0;
                ends[i] = v.hasRange() ? v.rangeEnd() : -1;
            }
        });
        return new IntervalIndex(starts, ends);
    }
}
