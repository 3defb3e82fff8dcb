package bufq.analysis.advise;

import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.analysis.sharding.Collectives;
import bufq.analysis.sharding.Replication;
import bufq.analysis.sharding.Shardings;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;
import bufq.units.Units;
import bufq.analysis.whatif.EditParser;
import bufq.analysis.whatif.EditSweep;
import bufq.analysis.whatif.Outcome;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code blame by sharding}: the replication audit of {@link Replication}, each group's saving
 * measured with {@code whatif} (the peak recomputed with its arrays, and the copies of their shape,
 * cut over every device), then all of them at once.
 */
public final class ShardingAudit {
    private ShardingAudit() {}

    /** One group with its measured saving. */
    public record Measured(Replication.Group group, String edit, long saves) {}

    /** The groups of {@code m}, each measured, largest saving first. */
    public static List<Measured> measure(HloModule m, Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        List<Measured> out = new ArrayList<>();
        for (Replication.Group g : Replication.of(m).groups()) {
            String edit = Replication.edit(g);
            out.add(new Measured(g, edit, saves(m, edit, catalog, tiling, tilings)));
        }
        out.sort(Comparator.comparingLong((Measured x) -> -x.saves()).thenComparing(x -> x.group().leaf()));
        return out;
    }

    static long saves(HloModule m, String edit, Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        EditParser.Parsed p = EditParser.parse(edit, Set.copyOf(catalog.entities()));
        Outcome o = EditSweep.run(m, p.edits(), catalog, tiling, tilings);
        return o.saved();
    }

    /** Notes on the module's collectives: combined ones split to their leaves, and gradients all-reduced whole. */
    private static void collectives(HloModule m, Table.Builder t) {
        Collectives c = Collectives.of(m);
        if (c.missing() != null) return;
        List<Collectives.Collective> combined = c.combined();
        if (!combined.isEmpty()) {
            long traced = combined.stream().filter(x -> !x.leaves().isEmpty()).count();
            StringBuilder b = new StringBuilder("combined collectives: " + combined.size() + ", " + traced + " traced to the leaves they carry");
            for (Collectives.Collective x : combined.stream().filter(x -> !x.leaves().isEmpty()).limit(3).toList()) {
                List<String> l = x.leaves();
                b.append("; ").append(x.name()).append(" (").append(x.kind()).append(", ").append(x.elements().size()).append(" operands): ")
                        .append(String.join(", ", l.subList(0, Math.min(4, l.size())))).append(l.size() > 4 ? ", +" + (l.size() - 4) + " more" : "");
            }
            t.note(b.append(" ('why' of a collective's value names its operand's leaf)").toString());
        }
        for (Collectives.Collective x : c.reducedWhole()) t.note(x.name() + ": " + x.whole());
    }

    /** The audit's table, or a line saying why there is none (one device; no HLO text, naming the file that would give it). */
    public static List<Output> report(HloModule m, Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        Shardings s = Shardings.of(m);
        if (!s.known()) return List.of(new TextBlock(m.handle() + ": no sharding: " + s.missing()));
        if (s.partitions() <= 1) return List.of(new TextBlock(m.handle() + ": one device (num_partitions=1 in " + s.source()
                + "): nothing to shard"));
        if (Liveness.of(m).peakTime() < 0) return List.of(new TextBlock(m.handle() + ": no live ranges, so no peak to measure a saving at"));
        List<Measured> found = measure(m, catalog, tiling, tilings);
        long peak = Liveness.of(m).peakBytes();
        Table.Builder t = Table.builder().title("sharding (" + m.handle() + ": " + s.partitions() + " devices; arrays the mesh could cut further)")
                .column("rank", ColumnType.INT).column("leaf", ColumnType.STRING).column("arrays", ColumnType.LIST)
                .column("now", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("sharded", ColumnType.BYTES)
                .column("copies", ColumnType.BYTES).column("saves", ColumnType.BYTES).column("peak_share", ColumnType.PERCENT)
                .column("whatif", ColumnType.STATEMENT).column("module", ColumnType.KEY);
        long k = 0;
        for (Measured x : found) {
            Replication.Group g = x.group();
            t.row(++k, g.leaf(), g.paths(), g.now(), g.bytes(), g.bytesSharded(), g.alikeBytes(), x.saves(),
                    peak == 0 ? null : (double) x.saves() / peak, "whatif " + x.edit(), m.handle());
        }
        if (found.size() > 1) {
            List<Replication.Group> all = found.stream().map(Measured::group).toList();
            String edit = Replication.edit(all);
            long saves = saves(m, edit, catalog, tiling, tilings);
            t.note("all " + found.size() + " at once: saves " + Units.human(saves) + " of the " + Units.human(peak) + " peak (whatif "
                    + (edit.length() > 120 ? edit.substring(0, 117) + "..." : edit) + ")");
        }
        if (found.isEmpty()) t.note("every entry parameter is cut " + s.partitions() + " ways, or too small to cut");
        t.note(s.perDeviceNote());
        collectives(m, t);
        t.note("bytes: the arrays' bytes per device now; sharded: cut over all " + s.partitions() + " devices; copies: values of their"
                + " per-device shape that are no parameter (gradients, updates, a loop's copies, all-gathers up to that shape), cut with them;"
                + " leaves of one shape share its copies (listed with the first);"
                + " saves: the peak recomputed under the edit (whatif)");
        return List.of(t.build());
    }
}
