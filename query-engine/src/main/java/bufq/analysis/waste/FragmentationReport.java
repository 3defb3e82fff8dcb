package bufq.analysis.waste;

import bufq.units.Units;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.analysis.liveness.Liveness;
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
 * {@code fragmentation}: per allocation (from the module's {@code Liveness}), its size against the
 * most bytes its values cover at one step (the union of their {@code [offset, offset+size)} ranges, so two values sharing bytes count
 * once), and the difference as wasted bytes; then per-colour totals under XLA's
 * {@code BufferAssignment::Stats} names.
 */
final class FragmentationReport {
    private FragmentationReport() {}

    static List<Output> run(HloModule m) {
        Liveness l = Liveness.of(m);
        Table.Builder b = Table.builder().key("fragmentation_per_allocation").title("fragmentation per allocation (" + m.handle() + ")")
                .column("allocation", ColumnType.INT).column("kind", ColumnType.STRING).column("color", ColumnType.INT)
                .column("size", ColumnType.BYTES).column("values", ColumnType.INT)
                .column("max_occupied_bytes", ColumnType.BYTES).column("max_time", ColumnType.INT)
                .column("fragmentation_bytes", ColumnType.BYTES).column("fragmentation_share", ColumnType.PERCENT);
        Map<Integer, long[]> stats = new TreeMap<>();
        List<BufferAllocation> allocs = new ArrayList<>(m.allocations());
        allocs.sort(Comparator.comparingInt(BufferAllocation::index));
        List<List<Object>> rows = new ArrayList<>();
        for (BufferAllocation a : allocs) {
            int values = m.valuesIn(a.index()).size();
            Liveness.AllocationUse u = l.allocationUse(a.index());
            long frag = a.size() - u.maxBytes();
            rows.add(Arrays.asList((long) a.index(), a.kind(), (long) a.color(), a.size(), (long) values,
                    u.maxBytes(), u.maxTime() < 0 ? null : (long) u.maxTime(), frag, Units.share(frag, a.size())));
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
        b.columnNote("max_occupied_bytes", "max_occupied_bytes: the most bytes covered at one step (max_time, its first) by the allocation's "
                + "live values, counting shared byte ranges once (union of offset ranges); values without a live range "
                + "count at every step");
        if (l.peakTime() >= 0) {
            b.note("the module's peak is step " + l.peakTime() + " (" + Units.human(l.peakBytes())
                    + " occupied over all allocations); an allocation's own maximum may fall at another step");
        }
        Table.Builder t = Table.builder().key("totals_per_color").title("totals per color (XLA BufferAssignment::Stats names)")
                .column("color", ColumnType.INT).column("parameter_allocation_bytes", ColumnType.BYTES)
                .column("constant_allocation_bytes", ColumnType.BYTES)
                .column("maybe_live_out_allocation_bytes", ColumnType.BYTES)
                .column("preallocated_temp_allocation_bytes", ColumnType.BYTES)
                .column("preallocated_temp_fragmentation_bytes", ColumnType.BYTES)
                .column("total_allocation_bytes", ColumnType.BYTES).column("total_fragmentation_bytes", ColumnType.BYTES)
                .column("total_fragmentation_share", ColumnType.PERCENT);
        stats.forEach((c, s) -> t.row((long) c, s[0], s[1], s[2], s[3], s[4], s[5], s[6], Units.share(s[6], s[5])));
        t.note("categories overlap as in XLA (a donated parameter is also maybe-live-out); XLA measures "
                + "total_fragmentation_bytes against the heap simulator's minimum, bufq against each allocation's "
                + "peak_live_bytes, so bufq's figure is the waste within allocations only");
        return List.of(b.build(), t.build());
    }
}
