package bufq.advise;

import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Sizes;
import bufq.table.Output;
import bufq.table.Table;
import bufq.whatif.EditParser;
import bufq.whatif.Outcome;
import bufq.whatif.WhatIf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs the rules on a module and measures each finding with the what-if engine: the bytes a finding
 * puts at stake are the peak it lowers, recomputed, never estimated.
 */
public final class Advisor {
    /** Evidence rows listed per finding. */
    public static final int EVIDENCE = 5;

    /**
     * The smallest peak saving worth reporting, as a share of the peak: findings below it (a 4-byte
     * scalar's remat) are left out, whichever rule (built in or a script's) made them.
     */
    public static final double MIN_SHARE = 0.005;

    private Advisor() {}

    /** The smallest saving {@link #run} keeps on a module whose peak is {@code peak} bytes: at least one byte. */
    public static long minimumSaving(long peak) {
        return Math.max(1, (long) Math.ceil(MIN_SHARE * peak));
    }

    /**
     * A finding with its measured bytes: for a finding with an edit, the peak saving its what-if
     * recomputes; for one without (the packing loss), the bytes its rule measured, which are not a
     * saving of the peak.
     */
    public record Measured(Advice advice, long saves) {
        /** Whether {@link #saves} is a peak the what-if lowers (else bytes reserved beyond the peak). */
        public boolean lowersPeak() { return advice.edit() != null; }
    }

    /**
     * Every rule's findings that lower the peak by at least {@link #minimumSaving}, largest saving
     * first; then the findings measured otherwise (the packing loss), largest first.
     *
     * @throws QueryException when a rule's edit fails (a bug in the rule: its message names the rule)
     */
    public static List<Measured> run(HloModule m, List<Rule> rules, Catalog catalog, TilingModel tiling,
                                     Function<String, TilingModel> tilings) throws QueryException {
        if (m.liveness().peakTime() < 0) return List.of();
        Facts facts = new Facts(m);
        long floor = minimumSaving(m.liveness().peakBytes());
        List<Measured> out = new ArrayList<>();
        for (Rule r : rules) {
            for (Advice a : r.find(facts)) {
                long saves = a.bytes();
                if (a.edit() != null) {
                    EditParser.Parsed p = EditParser.parse(a.edit(), Set.copyOf(catalog.entities()));
                    Outcome o = WhatIf.run(m, p.edits(), catalog, tiling, tilings);
                    saves = o.saved();
                    if (saves < floor) continue;   // a sign that changes (next to) nothing at the peak is no advice
                } else if (saves <= 0) {
                    continue;
                }
                out.add(new Measured(a, saves));
            }
        }
        out.sort(Comparator.comparing((Measured x) -> !x.lowersPeak()).thenComparingLong(x -> -x.saves()));
        return out;
    }

    /**
     * The report {@code advise} prints: the findings that lower the peak, ranked, each with the full
     * {@code whatif} line that reproduces its saving; the packing loss apart (bytes reserved beyond
     * the peak, not a saving of it); then the evidence of each finding.
     */
    public static List<Output> report(HloModule m, List<Measured> found) {
        long peak = m.liveness().peakBytes();
        Table.Builder t = Table.builder().title("advice (" + m.handle() + ")")
                .column("rank", ColumnType.INT).column("rule", ColumnType.STRING).column("saves", ColumnType.BYTES)
                .column("of_peak", ColumnType.PERCENT).column("finding", ColumnType.STRING).column("whatif", ColumnType.STRING);
        Table.Builder loss = Table.builder().title("beyond the peak")
                .column("rank", ColumnType.INT).column("rule", ColumnType.STRING).column("reserved", ColumnType.BYTES)
                .column("finding", ColumnType.STRING);
        Table.Builder ev = Table.builder().title("evidence")
                .column("rank", ColumnType.INT).column("id", ColumnType.INT).column("label", ColumnType.STRING)
                .column("size", ColumnType.BYTES).column("shape", ColumnType.STRING).column("op_name", ColumnType.STRING)
                .column("source", ColumnType.STRING);
        Facts f = new Facts(m);
        int rank = 0, lowering = 0, beyond = 0;
        for (Measured x : found) {
            rank++;
            Advice a = x.advice();
            if (x.lowersPeak()) {
                lowering++;
                t.row((long) rank, a.rule(), x.saves(), peak == 0 ? null : (double) x.saves() / peak, a.finding(), "whatif " + a.edit());
            } else {
                beyond++;
                loss.row((long) rank, a.rule(), x.saves(), a.finding());
            }
            List<HloValue> vs = a.values();
            for (HloValue v : vs.subList(0, Math.min(EVIDENCE, vs.size()))) {
                ev.row((long) rank, v.id(), v.label(), v.size(), v.shape() == null ? null : v.shape().text(),
                        f.opName(v).isEmpty() ? null : f.opName(v), f.source(v));
            }
        }
        if (lowering == 0) t.note("no rule found anything that lowers the peak by " + Sizes.human(minimumSaving(peak)) + " or more");
        t.note("savings are peaks recomputed with whatif: a bound under the current schedule and offsets, not a promise");
        List<Output> out = new ArrayList<>(List.of(t.build()));
        if (beyond > 0) {
            loss.note("bytes the allocations reserve beyond the peak of occupied bytes: packing loss, not a saving of the peak");
            out.add(loss.build());
        }
        out.add(ev.build());
        return out;
    }
}
