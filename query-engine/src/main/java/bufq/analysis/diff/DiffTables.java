package bufq.analysis.diff;

import bufq.analysis.sharding.ShardingChanges;
import bufq.units.Units;
import bufq.analysis.diff.DiffResult.GroupChange;
import bufq.analysis.diff.DiffResult.Peak;
import bufq.analysis.diff.DiffResult.SummaryRow;
import bufq.analysis.diff.DiffResult.Unmatched;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;

/** Renders a {@link DiffResult} as typed tables. Pure: the same result gives the same tables. */
public final class DiffTables {
    /** Names shown per row of the one-side table; the rest is counted. */
    static final int NAMES_SHOWN = 4;

    private DiffTables() {}

    /**
     * The report as typed tables: summary, by category, by op_name, by source line, values only on one side,
     * and the likely renamed among those.
     */
    public static List<Output> render(DiffResult r) {
        int limit = r.options().limit();
        String scope = r.options().atPeak() ? " (values live at peak)" : "";
        Table bySource = groups("live at peak by source line", "live_at_peak_by_source_line", "source", r.bySource(), limit);
        if (!r.hasSources()) bySource = new Table(bySource.title(), bySource.columns(), List.of(),
                List.of("neither dump carries source_file/source_line metadata"), bySource.key());
        Table byCategory = groups("occupied at peak by category", "occupied_at_peak_by_category", "category", r.byCategory(), -1);
        if (r.peakKnown()) byCategory = byCategory.withNote("each byte held at each side's peak once, in one category (blame by category): "
                + "each side's rows add up to its peak");
        List<Output> out = new ArrayList<>(List.of(summary(r, scope), byCategory,
                groups("live at peak by op_name", "live_at_peak_by_op_name", "op_name", r.byOpName(), limit), bySource,
                unmatched(r, scope, limit), renamed(r, scope, limit)));
        if (!r.shardings().isEmpty()) out.add(shardings(r));
        return out;
    }

    /** The arguments cut otherwise on the two sides, one line each ({@code params['embed']: 1/4 per device -> replicated}). */
    static Table shardings(DiffResult r) {
        Table.Builder t = Table.builder().key("sharding_changes").title("sharding changes (the HLO text beside each dump)")
                .column("argument", ColumnType.STRING).column("before", ColumnType.STRING).column("after", ColumnType.STRING)
                .column("bytes_before", ColumnType.BYTES).column("bytes_after", ColumnType.BYTES).column("change", ColumnType.BYTES);
        for (ShardingChanges.Change c : r.shardings())
            t.row(c.path(), c.before(), c.after(), c.bytesBefore(), c.bytesAfter(), c.bytesAfter() - c.bytesBefore());
        t.note("bytes are per device: one SPMD program serves every device");
        return t.build();
    }

    /** Sharding changes the summary names; the rest are in their own table. */
    static final int SHARDING_LINES = 5;

    static Table summary(DiffResult r, String scope) {
        Table.Builder t = Table.builder().key("summary").title("summary: " + r.before() + " -> " + r.after() + scope)
                .column("measure", ColumnType.STRING).column("before", ColumnType.BYTES)
                .column("after", ColumnType.BYTES).column("change", ColumnType.BYTES)
                .column("change_share", ColumnType.PERCENT);
        for (SummaryRow s : r.summary()) t.row(s.measure(), s.before(), s.after(), s.change(), s.changeFraction());
        t.note("peak at step " + step(r.peakBefore()) + " before, " + step(r.peakAfter()) + " after");
        Peak b = r.peakBefore(), a = r.peakAfter();
        if (!r.peakKnown()) {
            String who = b.recomputed() == null && a.recomputed() == null ? "neither dump has"
                    : (b.recomputed() == null ? "before" : "after") + " has no";
            t.note("peak change unknown: " + who + " live ranges");
        } else {
            t.note("peak change " + signed(r.peakChange()) + " bytes (occupied bytes at each side's peak, recomputed)");
        }
        String remat = rematNote(r);
        if (remat != null) t.note(remat);
        mismatchNote(t, "before", b);
        mismatchNote(t, "after", a);
        for (String c : r.caveats()) t.note(c);
        List<ShardingChanges.Change> sh = r.shardings();
        for (int i = 0; i < Math.min(SHARDING_LINES, sh.size()); i++) t.note("sharding: " + sh.get(i).line());
        if (sh.size() > SHARDING_LINES) t.note("sharding: " + (sh.size() - SHARDING_LINES) + " more arguments cut otherwise (the sharding changes table)");
        if (r.identical()) t.note("no differences");
        return t.build();
    }

    /**
     * One line on why a remat build's peak did or did not drop, when the after side recomputes
     * ({@code jax.checkpoint}'s {@code rematted_computation} op_names live at its peak) and the
     * before side does not: the recomputed values live together at the new peak, against the saved
     * activations that left it. Null for other pairs.
     */
    static String rematNote(DiffResult r) {
        if (!r.peakKnown()) return null;
        long recomputed = 0, gone = 0;
        int values = 0, groups = 0, most = 0;
        for (DiffResult.GroupChange g : r.byOpName()) {
            boolean remat = g.group().contains("rematted_computation");
            if (remat && g.before() > 0) return null;   // both sides recompute: not a remat pair
            if (remat && g.after() > 0) {
                recomputed += g.after();
                values += g.valuesAfter();
                groups++;
                most = Math.max(most, g.valuesAfter());
            } else if (!remat && g.change() < 0) {
                gone -= g.change();
            }
        }
        if (groups == 0) return null;
        long change = r.peakChange();
        return "remat: " + values + " recomputed values (rematted_computation, across " + groups + " op_names, up to " + most
                + " of one op_name) live together at the new peak, " + Units.human(recomputed) + ", against "
                + Units.human(gone) + " of other values that left it; so the peak " + (change < 0 ? "dropped by "
                + Units.human(-change) : "did not drop (" + (change == 0 ? "unchanged" : "+" + Units.human(change)) + ")")
                + (change >= 0 ? ": the recomputations are scheduled together, not each before its own use" : "");
    }

    /** Says so when a dump labels another step than the peak, instead of hiding it. */
    private static void mismatchNote(Table.Builder t, String side, Peak p) {
        if (p.claimedTime() >= 0 && p.time() >= 0 && p.claimedTime() != p.time())
            t.note(side + ": the dump labels step " + p.claimedTime() + " its peak; the peak of occupied bytes is step "
                    + p.time() + " (see peak)");
    }

    private static String step(Peak p) {
        return p.time() < 0 ? "? (no schedule)" : p.time() + " (of " + p.steps() + ")";
    }

    private static String signed(long v) { return v > 0 ? "+" + v : Long.toString(v); }

    static Table groups(String title, String key, String keyColumn, List<GroupChange> rows, int limit) {
        Table.Builder t = Table.builder().key(key).title(title)
                .column(keyColumn, ColumnType.STRING).column("before", ColumnType.BYTES)
                .column("after", ColumnType.BYTES).column("change", ColumnType.BYTES)
                .column("change_share", ColumnType.PERCENT).column("values_before", ColumnType.INT)
                .column("values_after", ColumnType.INT);
        boolean none = false;
        for (GroupChange g : rows) {
            // No fraction of nothing: a group only after is "new" (data formats too, rather than an empty cell).
            t.row(g.group(), g.before(), g.after(), g.change(), g.before() == 0 ? "new" : (double) g.change() / g.before(),
                    (long) g.valuesBefore(), (long) g.valuesAfter());
            none |= Side.NONE.equals(g.group());
        }
        if (rows.isEmpty()) t.note("no differences");
        if (none) t.note(Side.NONE + ": values whose defining instruction carries no " + keyColumn);
        return limit(t.build(), limit);
    }

    static Table unmatched(DiffResult r, String scope, int limit) {
        Table.Builder t = Table.builder().key("values_only_on_one_side").title("values only on one side" + scope)
                .column("side", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("count", ColumnType.INT)
                .column("shape", ColumnType.STRING).column("role", ColumnType.STRING)
                .column("op_name", ColumnType.STRING).column("source", ColumnType.STRING)
                .column("values", ColumnType.LIST);
        // Only the rows shown are built: two unrelated programs can leave a hundred thousand.
        List<Unmatched> shown = limit < 0 ? r.unmatched() : r.unmatched().subList(0, Math.min(limit, r.unmatched().size()));
        for (Unmatched u : shown) {
            List<Object> names = new ArrayList<>(u.names().subList(0, Math.min(NAMES_SHOWN, u.names().size())));
            if (u.names().size() > NAMES_SHOWN) names.add("+" + (u.names().size() - NAMES_SHOWN) + " more");
            t.row(u.where().text(), u.bytes(), (long) u.count(), u.key().shape(), u.key().role().word(),
                    u.key().opGroup(), u.key().source(), names);
        }
        if (r.unmatched().isEmpty()) t.note("every value has a partner with the same op_name, source, shape and role");
        else t.note("values match on (op_name, source, shape, role); equal keys pair up in schedule order");
        return withMore(t.build(), r.unmatched().size() - shown.size());
    }

    static Table renamed(DiffResult r, String scope, int limit) {
        Table.Builder t = Table.builder().key("only_on_one_side").title("only on one side, likely renamed" + scope)
                .column("bytes", ColumnType.BYTES).column("count", ColumnType.INT)
                .column("shape", ColumnType.STRING).column("role", ColumnType.STRING)
                .column("op_name_before", ColumnType.STRING).column("op_name_after", ColumnType.STRING);
        for (DiffResult.Renamed p : r.renamed())
            t.row(p.before().bytes(), (long) p.before().count(), p.before().key().shape(), p.before().key().role().word(),
                    p.before().key().opGroup(), p.after().key().opGroup());
        if (r.renamed().isEmpty()) t.note("no one-side values differ only in op_name context");
        else t.note("a hint: rows above with equal shape, role, source and count whose op_names end alike");
        return limit(t.build(), limit);
    }

    /** The first {@code max} rows, with a note saying how many were left out. */
    static Table limit(Table t, int max) {
        if (max < 0 || t.size() <= max) return t;
        return withMore(new Table(t.title(), t.columns(), t.rows().subList(0, max), t.notes(), t.key()), t.size() - max);
    }

    private static Table withMore(Table t, int more) {
        return more <= 0 ? t : t.withNote(more + " more row" + (more == 1 ? "" : "s") + " (raise the diff limit to see them)");
    }
}
