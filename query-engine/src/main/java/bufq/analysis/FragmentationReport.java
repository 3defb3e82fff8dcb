package bufq.analysis;

import bufq.model.BufferAllocation;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code fragmentation}: per allocation, its size against the most bytes its values cover at one
 * step (the union of their {@code [offset, offset+size)} ranges, so two values sharing bytes count
 * once), and the difference as wasted bytes; then per-colour totals under XLA's
 * {@code BufferAssignment::Stats} names.
 */
final class FragmentationReport {
    private FragmentationReport() {}

    /** The busiest moment of one allocation. */
    record Usage(long peakBytes, int peakTime) {}

    static List<Output> run(HloModule m) {
        Table.Builder b = Table.builder().title("fragmentation per allocation (" + m.handle() + ")")
                .column("allocation", ColumnType.INT).column("kind", ColumnType.STRING).column("color", ColumnType.INT)
                .column("size", ColumnType.BYTES).column("values", ColumnType.INT)
                .column("peak_live_bytes", ColumnType.BYTES).column("peak_time", ColumnType.INT)
                .column("fragmentation_bytes", ColumnType.BYTES).column("fragmentation", ColumnType.PERCENT);
        Map<Integer, long[]> stats = new TreeMap<>();
        List<BufferAllocation> allocs = new ArrayList<>(m.allocations());
        allocs.sort(Comparator.comparingInt(BufferAllocation::index));
        List<List<Object>> rows = new ArrayList<>();
        for (BufferAllocation a : allocs) {
            List<HloValue> vs = m.valuesIn(a.index());
            Usage u = usage(vs);
            long frag = a.size() - u.peakBytes();
            rows.add(Arrays.asList((long) a.index(), a.kind(), (long) a.color(), a.size(), (long) vs.size(),
                    u.peakBytes(), u.peakTime() < 0 ? null : (long) u.peakTime(), frag, Bytes.share(frag, a.size())));
            long[] s = stats.computeIfAbsent(a.color(), k -> new long[7]);
            if (a.isParameter()) s[0] += a.size();
            if (a.constant()) s[1] += a.size();
            if (a.maybeLiveOut()) s[2] += a.size();
            if (a.preallocatedTemp()) {
                s[3] += a.size();
                s[4] += frag;
            }
            s[5] += a.size();
            s[6] += frag;
        }
        // Most wasted bytes first, so a long list starts with what matters; ties by index.
        rows.sort(Comparator.comparingLong((List<Object> r) -> -(Long) r.get(7)).thenComparingLong(r -> (Long) r.get(0)));
        rows.forEach(b::row);
        b.note("peak_live_bytes: the most bytes covered at one step by the allocation's live values, counting "
                + "shared byte ranges once (union of offset ranges); values without a live range count at every step");
        Table.Builder t = Table.builder().title("totals per color (XLA BufferAssignment::Stats names)")
                .column("color", ColumnType.INT).column("parameter_allocation_bytes", ColumnType.BYTES)
                .column("constant_allocation_bytes", ColumnType.BYTES)
                .column("maybe_live_out_allocation_bytes", ColumnType.BYTES)
                .column("preallocated_temp_allocation_bytes", ColumnType.BYTES)
                .column("preallocated_temp_fragmentation_bytes", ColumnType.BYTES)
                .column("total_allocation_bytes", ColumnType.BYTES).column("total_fragmentation_bytes", ColumnType.BYTES)
                .column("total_fragmentation", ColumnType.PERCENT);
        stats.forEach((c, s) -> t.row((long) c, s[0], s[1], s[2], s[3], s[4], s[5], s[6], Bytes.share(s[6], s[5])));
        t.note("categories overlap as in XLA (a donated parameter is also maybe-live-out); XLA measures "
                + "total_fragmentation_bytes against the heap simulator's minimum, bufq against each allocation's "
                + "peak_live_bytes, so bufq's figure is the waste within allocations only");
        return List.of(b.build(), t.build());
    }

    /**
     * Peak over time of the union of byte ranges of the live values, and the first step it is
     * reached (-1 when no value has a live range). A sweep over start/end events with a coverage tree.
     */
    static Usage usage(List<HloValue> values) {
        if (values.isEmpty()) return new Usage(0, -1);
        long[] points = new long[2 * values.size()];
        int k = 0;
        for (HloValue v : values) {
            points[k++] = v.offset();
            points[k++] = v.offset() + Math.max(0, v.size());
        }
        CoverageTree tree = new CoverageTree(points);
        List<HloValue> ranged = new ArrayList<>();
        for (HloValue v : values) {
            if (v.range() == null) tree.add(v.offset(), v.offset() + v.size());
            else if (v.range().end() >= v.range().start()) ranged.add(v);
        }
        if (ranged.isEmpty()) return new Usage(tree.covered(), -1);
        List<HloValue> byStart = new ArrayList<>(ranged), byEnd = new ArrayList<>(ranged);
        byStart.sort(Comparator.comparingInt(v -> v.range().start()));
        byEnd.sort(Comparator.comparingInt(v -> v.range().end()));
        long best = -1;
        int at = -1, e = 0;
        for (int i = 0; i < byStart.size(); ) {
            int t = byStart.get(i).range().start();
            // Values that ended before t leave first; a value ending at t-1 no longer counts at t.
            while (e < byEnd.size() && byEnd.get(e).range().end() < t) {
                HloValue v = byEnd.get(e++);
                tree.remove(v.offset(), v.offset() + v.size());
            }
            for (; i < byStart.size() && byStart.get(i).range().start() == t; i++) {
                HloValue v = byStart.get(i);
                tree.add(v.offset(), v.offset() + v.size());
            }
            if (tree.covered() > best) {
                best = tree.covered();
                at = t;
            }
        }
        return new Usage(best, at);
    }
}
