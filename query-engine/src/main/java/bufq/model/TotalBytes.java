package bufq.model;

/**
 * A module's total bytes, the one figure {@code summary} and {@code modules} show: what XLA prints
 * as {@code Total bytes used}. That is the sum of the allocation sizes when every size is known
 * exactly (a buffer-assignment dump, a proto); a memory-usage report lists sizes rounded
 * ({@code 1.82GiB}) and only the largest allocations, so there the report's own stated total is the
 * figure, then the sum of its per-colour totals (a report proto read alone, which lists no
 * allocation by index). The sum of the rounded sizes agrees with neither the dump nor itself.
 */
public final class TotalBytes {
    private TotalBytes() {}

    public static long of(HloModule m) {
        boolean exact = !m.allocations().isEmpty();
        for (BufferAllocation a : m.allocations()) exact &= a.sizeExact();
        boolean spaces = MemorySpace.several(m) && MemorySpace.colors(m).contains(MemorySpace.DEVICE);
        if (exact && spaces) {
            long s = 0;
            for (BufferAllocation a : m.allocations()) if (a.color() == MemorySpace.DEVICE) s = Math.addExact(s, a.size());
            return s;
        }
        if (exact) return m.totalBytes();
        HloModule.Info info = m.info();
        if (spaces && info.colorTotals().containsKey(MemorySpace.DEVICE)) return info.colorTotals().get(MemorySpace.DEVICE);
        if (info.claimedTotalBytes() != null) return info.claimedTotalBytes();
        if (!info.colorTotals().isEmpty()) {
            long s = 0;
            for (long v : info.colorTotals().values()) s = Math.addExact(s, v);
            return s;
        }
        return m.totalBytes();
    }
}
