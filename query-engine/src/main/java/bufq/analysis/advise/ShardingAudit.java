package bufq.analysis.advise;

import bufq.analysis.whatif.ReadableEdits;
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
import bufq.analysis.whatif.Edit;
import bufq.analysis.whatif.EditSweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code blame by sharding}: the replication audit of {@link Replication}, each group's saving
 * measured with {@code whatif} (the peak recomputed with its arrays, and the copies of their shape,
 * cut over every device), then all of them at once.
 */
public final class ShardingAudit {
    private ShardingAudit() {}

    /** One group with its measured saving. */
    public record Measured(Replication.Group group, List<Edit> edit, long saves) {}

    /** The groups of {@code m}, each measured, largest saving first. */
    public static List<Measured> measure(HloModule m, Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        List<Measured> out = new ArrayList<>();
        for (Replication.Group g : Replication.of(m).groups()) {
            List<Edit> edit = edits(g);
            out.add(new Measured(g, edit, saves(m, edit, catalog, tiling, tilings)));
        }
        out.sort(Comparator.comparingLong((Measured x) -> -x.saves()).thenComparing(x -> x.group().leaf()));
        return out;
    }

    static long saves(HloModule m, List<Edit> edit, Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        return EditSweep.run(m, edit, catalog, tiling, tilings).saved();
    }

    /**
     * The {@code whatif} edits that cut every value of {@code g} as its member would be: each scaled
     * by its pieces over the mesh's devices ({@code scale where ... by 0.25}), one edit per factor.
     */
    static List<Edit> edits(Replication.Group g) {
        List<Edit> out = new ArrayList<>();
        for (Map.Entry<Long, List<Long>> e : Replication.idsByPieces(g).entrySet())
            out.add(Edit.Scale.of(Edit.Where.ofIds(e.getValue()), (double) e.getKey() / g.partitions()));
        return out;
    }

    /** Edits for several groups at once. */
    static List<Edit> edits(List<Replication.Group> gs) {
        List<Edit> out = new ArrayList<>();
        for (Replication.Group g : gs) out.addAll(edits(g));
        return out;
    }

    /** Longest whatif line the "all at once" note prints; a longer one is the rows' lines joined. */
    static final int LINE = 320;

    /**
     * The whatif of every group at once, as people read it: the values named by one condition where
     * one is found, else the rows' own lines joined with {@code ;} when short, else that said.
     */
    private static String atOnce(ReadableEdits readable, List<Edit> merged, List<Measured> found) {
        String one = readable.named(merged);
        if (one != null && one.length() <= LINE) return "whatif " + one;
        List<String> rows = new ArrayList<>();
        for (Measured x : found) rows.add(readable.render(x.edit()));
        String joined = String.join("; ", rows);
        return joined.length() <= LINE ? "whatif " + joined : "whatif: the lines of all " + found.size() + " rows, joined with '; '";
    }

    /**
     * The same edits with one scale per factor: every group's values cut by 0.25 selected at once,
     * so the line names them by what they share rather than one condition per group.
     */
    static List<Edit> merged(List<Edit> edits) {
        Map<Double, List<Long>> byFactor = new TreeMap<>();
        for (Edit e : edits) {
            if (!(e instanceof Edit.Scale s) || s.where().ids() == null) return edits;
            byFactor.computeIfAbsent(s.factor(), k -> new ArrayList<>()).addAll(s.where().ids());
        }
        List<Edit> out = new ArrayList<>();
        for (Map.Entry<Double, List<Long>> e : byFactor.entrySet()) out.add(Edit.Scale.of(Edit.Where.ofIds(e.getValue()), e.getKey()));
        return out;
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
        ReadableEdits readable = new ReadableEdits(m, catalog, tiling);
        long peak = Liveness.of(m).peakBytes();
        Table.Builder t = Table.builder().key("sharding").title("sharding (" + m.handle() + ": " + s.partitions() + " devices; arrays the mesh could cut further)")
                .column("rank", ColumnType.INT).column("leaf", ColumnType.STRING).column("arrays", ColumnType.LIST)
                .column("now", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("sharded", ColumnType.BYTES)
                .column("copies", ColumnType.BYTES).column("saves", ColumnType.BYTES).column("peak_share", ColumnType.PERCENT)
                .column("whatif", ColumnType.STATEMENT).column("module", ColumnType.KEY);
        long k = 0;
        for (Measured x : found) {
            Replication.Group g = x.group();
            t.row(++k, g.leaf(), g.paths(), g.now(), g.bytes(), g.bytesSharded(), g.alikeBytes(), x.saves(),
                    peak == 0 ? null : (double) x.saves() / peak, "whatif " + readable.render(x.edit()), m.handle());
        }
        if (found.size() > 1) {
            List<Replication.Group> all = found.stream().map(Measured::group).toList();
            List<Edit> edit = merged(edits(all));
            long saves = saves(m, edit, catalog, tiling, tilings);
            t.note("all " + found.size() + " at once: saves " + Units.human(saves) + " of the " + Units.human(peak) + " peak ("
                    + atOnce(readable, edit, found) + ")");
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
