package bufq.dump.proto;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads a memory usage report proto ({@code *-memory-usage-report.pb}, an
 * {@code xla.MemoryUsageReportProto}): the total bytes of each memory space by colour, what the
 * text report's {@code Memory Space: ... (color=C)} / {@code Total bytes: N} lines give. Its
 * per-allocation entries are skipped (the buffer assignment holds the same, exactly).
 */
final class ReportReader {
    private ReportReader() {}

    private static final long MAX_COLOR = 1 << 16;

    /** Colour to total bytes, in colour order. @throws ProtoException a proto of another kind, or one cut short */
    static SortedMap<Integer, Long> colorTotals(byte[] bytes, int from, int length, long base) throws ProtoException {
        Wire w = new Wire(bytes, from, length, base, "MemoryUsageReportProto");
        SortedMap<Integer, Long> totals = new TreeMap<>();
        int n = 0;
        for (int f; (f = w.next()) != 0; ) {
            if (f != FieldNumbers.MemoryUsageReportProto.MEMORY_SPACES) {
                w.skip();
                continue;
            }
            int l = w.enter("memory_spaces", n++);
            long total = 0, color = 0;
            for (int g; (g = w.next()) != 0; ) {
                switch (g) {
                    case FieldNumbers.MemoryUsageReportProto_MemorySpace.TOTAL_BYTES -> total = w.int64("total_bytes");
                    case FieldNumbers.MemoryUsageReportProto_MemorySpace.COLOR -> color = w.int64("color");
                    default -> w.skip();
                }
            }
            if (total < 0) throw w.error("total_bytes " + total + " is negative");
            if (color < 0 || color > MAX_COLOR) throw w.error("color " + color + ", expected 0 to " + MAX_COLOR);
            w.leave(l);
            Long sum = totals.merge((int) color, total, (a, b) -> a + b);
            if (sum < 0) throw w.error("the totals of color " + color + " overflow");
        }
        if (n == 0) throw new ProtoException(base, "MemoryUsageReportProto", "no memory spaces (field 1): not a memory usage report");
        return totals;
    }
}
