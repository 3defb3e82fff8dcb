package bufq.analysis.waste;

import bufq.units.Units;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.NaturalOrder;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code padding}: bytes lost to tiling under the current tiling model ({@code set tiling}), the
 * same figure as the query fields {@code padded_size} and {@code padding}: per value the model's
 * padded size minus the logical size of its shape; in total per colour, the worst offenders, and
 * grouped by shape with layout. Under the built-in {@code tpu} model on a TPU dump the padded size is
 * the dump's assigned {@code size=}; the worst offenders show that size beside the model's.
 *
 * <p>A value assigned fewer bytes than its logical size (a slice of a larger buffer's bytes) holds
 * no padding of its own: it is left out, so no total goes negative.
 */
final class PaddingReport {
    static final int WORST = 20;

    private PaddingReport() {}

    /** @param tiling the model that pads; null means XLA's TPU rule, as in checks */
    static List<Output> run(HloModule m, TilingModel tiling) {
        TilingModel t = tiling == null ? TilingModel.TPU : tiling;
        // The values the model pads, in module order, with their padded size (HloValue's equals
        // compares contents, so identity keys).
        Map<HloValue, Long> padded = new IdentityHashMap<>();
        List<HloValue> order = new ArrayList<>();
        int slices = 0;
        for (HloValue v : m.values()) {
            if (v.shape() == null) continue;
            if (v.size() < v.logicalSize()) {
                slices++;
                continue;
            }
            long p = t.paddedBytes(v, m);
            if (p > v.logicalSize()) {
                padded.put(v, p);
                order.add(v);
            }
        }
        return List.of(totals(m, t, padded, slices), worst(order, padded), byShape(order, padded));
    }

    private static Table totals(HloModule m, TilingModel t, Map<HloValue, Long> padded, int slices) {
        Table.Builder b = Table.builder().key("padding_totals").title("padding totals (" + m.handle() + ", tiling model '" + t.name() + "')")
                .column("color", ColumnType.STRING).column("values", ColumnType.INT)
                .column("padded_values", ColumnType.INT).column("logical_bytes", ColumnType.BYTES)
                .column("padded_bytes", ColumnType.BYTES).column("padding_bytes", ColumnType.BYTES)
                .column("padding_share", ColumnType.PERCENT);
        Map<String, long[]> acc = new LinkedHashMap<>();
        acc.put("all", new long[4]);
        Map<Integer, long[]> byColor = new TreeMap<>();
        for (HloValue v : m.values()) {
            Long p = padded.get(v);
            for (long[] a : List.of(acc.get("all"), byColor.computeIfAbsent(v.color(), k -> new long[4]))) {
                a[0]++;
                a[2] += v.logicalSize();
                if (p != null) {
                    a[1]++;
                    a[3] += p - v.logicalSize();
                }
            }
        }
        if (byColor.size() > 1) byColor.forEach((c, a) -> acc.put(Integer.toString(c), a));
        acc.forEach((k, a) -> b.row(k, a[0], a[1], a[2], a[2] + a[3], a[3], Units.share(a[3], a[2] + a[3])));
        b.columnNote("padded_bytes", "padded_bytes: sizes under the '" + t.name() + "' tiling model (set tiling), as the padded_size field;"
                + " padding_bytes = padded_bytes - logical_bytes");
        if (slices > 0) b.note(slices + (slices == 1 ? " value is" : " values are") + " assigned less than its logical"
                + " size (a slice of a larger buffer) and left out of the padding");
        b.note("sums over values, not memory in use: values share allocations over time (see peak and fragmentation)");
        return b.build();
    }

    private static Table worst(List<HloValue> order, Map<HloValue, Long> padded) {
        Table.Builder b = Table.builder().key("worst_offenders").title("worst offenders")
                .column("value", ColumnType.STRING).column("allocation", ColumnType.INT)
                .column("shape", ColumnType.STRING).column("logical", ColumnType.BYTES)
                .column("padded", ColumnType.BYTES).column("padding", ColumnType.BYTES)
                .column("padding_share", ColumnType.PERCENT).column("assigned", ColumnType.BYTES);
        List<HloValue> vs = new ArrayList<>(order);
        vs.sort(Comparator.comparingLong((HloValue v) -> padded.get(v) - v.logicalSize()).reversed()
                .thenComparing(HloValue::label, NaturalOrder.INSTANCE));
        for (HloValue v : vs.subList(0, Math.min(WORST, vs.size()))) {
            long p = padded.get(v);
            b.row(v.label(), (long) v.allocation(), v.shape().text(), v.logicalSize(), p, p - v.logicalSize(),
                    Units.share(p - v.logicalSize(), p), v.size());
        }
        if (vs.size() > WORST) b.note((vs.size() - WORST) + " more padded values");
        if (vs.isEmpty()) b.note("the tiling model pads no value beyond its logical size");
        else b.columnNote("assigned", "assigned: the dump's size= for the value");
        return b.build();
    }

    private static Table byShape(List<HloValue> order, Map<HloValue, Long> padded) {
        Table.Builder b = Table.builder().key("padding_by_shape_and_layout").title("padding by shape and layout")
                .column("shape", ColumnType.STRING).column("values", ColumnType.INT)
                .column("logical_each", ColumnType.BYTES).column("padded_each", ColumnType.BYTES)
                .column("padding_total", ColumnType.BYTES);
        record Group(String shape, long logical, long padded, long[] count) {}
        Map<String, Group> groups = new LinkedHashMap<>();
        for (HloValue v : order) {
            long p = padded.get(v);
            groups.computeIfAbsent(v.shape().text() + "\u0000" + p,
                    x -> new Group(v.shape().text(), v.logicalSize(), p, new long[1])).count()[0]++;
        }
        List<Group> gs = new ArrayList<>(groups.values());
        gs.sort(Comparator.comparingLong((Group g) -> (g.padded() - g.logical()) * g.count()[0]).reversed()
                .thenComparing(Group::shape));
        for (Group g : gs) b.row(g.shape(), g.count()[0], g.logical(), g.padded(), (g.padded() - g.logical()) * g.count()[0]);
        return b.build();
    }
}
