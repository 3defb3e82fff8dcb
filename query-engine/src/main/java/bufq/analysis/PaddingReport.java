package bufq.analysis;

import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code padding}: bytes lost to tiling, per value (assigned {@code size=} minus the logical size of
 * its shape), in total per colour, the worst offenders, and grouped by shape with layout.
 */
final class PaddingReport {
    static final int WORST = 20;

    private PaddingReport() {}

    static List<Output> run(HloModule m, TilingModel tiling) {
        boolean rule = tiling != null && tiling != TilingModel.NONE;
        return List.of(totals(m), worst(m, tiling, rule), byShape(m));
    }

    private static Table totals(HloModule m) {
        Table.Builder b = Table.builder().title("padding totals (" + m.handle() + ")")
                .column("color", ColumnType.STRING).column("values", ColumnType.INT)
                .column("padded_values", ColumnType.INT).column("logical_bytes", ColumnType.BYTES)
                .column("assigned_bytes", ColumnType.BYTES).column("padding_bytes", ColumnType.BYTES)
                .column("padding_share", ColumnType.PERCENT);
        Map<String, long[]> acc = new LinkedHashMap<>();
        acc.put("all", new long[5]);
        Map<Integer, long[]> byColor = new TreeMap<>();
        for (HloValue v : m.values()) {
            for (long[] a : List.of(acc.get("all"), byColor.computeIfAbsent(v.color(), k -> new long[5]))) {
                a[0]++;
                if (padded(v)) a[1]++;
                a[2] += v.logicalSize();
                a[3] += v.size();
                a[4] += v.size() - v.logicalSize();
            }
        }
        if (byColor.size() > 1) byColor.forEach((c, a) -> acc.put(Integer.toString(c), a));
        acc.forEach((k, a) -> b.row(k, a[0], a[1], a[2], a[3], a[4], Bytes.share(a[4], a[3])));
        b.note("sums over values, not memory in use: values share allocations over time (see peak and fragmentation)");
        return b.build();
    }

    private static Table worst(HloModule m, TilingModel tiling, boolean rule) {
        Table.Builder b = Table.builder().title("worst offenders")
                .column("value", ColumnType.STRING).column("allocation", ColumnType.INT)
                .column("shape", ColumnType.STRING).column("logical", ColumnType.BYTES)
                .column("assigned", ColumnType.BYTES).column("padding", ColumnType.BYTES)
                .column("padding_share", ColumnType.PERCENT);
        if (rule) b.column("rule_" + tiling.name(), ColumnType.BYTES);
        List<HloValue> padded = new ArrayList<>();
        for (HloValue v : m.values()) if (padded(v)) padded.add(v);
        padded.sort(Comparator.comparingLong((HloValue v) -> v.size() - v.logicalSize()).reversed()
                .thenComparing(HloValue::label));
        for (HloValue v : padded.subList(0, Math.min(WORST, padded.size()))) {
            List<Object> row = new ArrayList<>(List.of(v.label(), (long) v.allocation(), v.shape().text(), v.logicalSize(),
                    v.size(), v.size() - v.logicalSize(), Bytes.share(v.size() - v.logicalSize(), v.size())));
            if (rule) row.add(tiling.paddedBytes(v, m));
            b.row(row);
        }
        if (padded.size() > WORST) b.note((padded.size() - WORST) + " more padded values");
        if (padded.isEmpty()) b.note("no value's assigned size exceeds its logical size");
        return b.build();
    }

    /** Padded: assigned more than its logical size (a smaller assignment, such as a slice of a
     *  larger buffer's bytes, is not padding). */
    private static boolean padded(HloValue v) {
        return v.size() > v.logicalSize();
    }

    private static Table byShape(HloModule m) {
        Table.Builder b = Table.builder().title("padding by shape and layout")
                .column("shape", ColumnType.STRING).column("values", ColumnType.INT)
                .column("logical_each", ColumnType.BYTES).column("assigned_each", ColumnType.BYTES)
                .column("padding_total", ColumnType.BYTES);
        record Group(String shape, long logical, long assigned, long[] count) {}
        Map<String, Group> groups = new LinkedHashMap<>();
        for (HloValue v : m.values()) {
            if (!padded(v)) continue;
            String k = v.shape().text() + "\u0000" + v.size();
            groups.computeIfAbsent(k, x -> new Group(v.shape().text(), v.logicalSize(), v.size(), new long[1])).count()[0]++;
        }
        List<Group> gs = new ArrayList<>(groups.values());
        gs.sort(Comparator.comparingLong((Group g) -> (g.assigned() - g.logical()) * g.count()[0]).reversed()
                .thenComparing(Group::shape));
        for (Group g : gs) b.row(g.shape(), g.count()[0], g.logical(), g.assigned(), (g.assigned() - g.logical()) * g.count()[0]);
        return b.build();
    }
}
