package bufq.advise;

import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
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

    private Advisor() {}

    /** A finding with its measured saving. */
    public record Measured(Advice advice, long saves) {}

    /**
     * Every rule's findings that lower the peak, largest saving first.
     *
     * @throws QueryException when a rule's edit fails (a bug in the rule: its message names the rule)
     */
    public static List<Measured> run(HloModule m, List<Rule> rules, Catalog catalog, TilingModel tiling,
                                     Function<String, TilingModel> tilings) throws QueryException {
        if (m.liveness().peakTime() < 0) return List.of();
        Facts facts = new Facts(m);
        List<Measured> out = new ArrayList<>();
        for (Rule r : rules) {
            for (Advice a : r.find(facts)) {
                long saves = a.bytes();
                if (a.edit() != null) {
                    EditParser.Parsed p = EditParser.parse(a.edit(), Set.copyOf(catalog.entities()));
                    Outcome o = WhatIf.run(m, p.edits(), catalog, tiling, tilings);
                    saves = o.saved();
                }
                if (saves > 0) out.add(new Measured(a, saves));   // a sign that changes nothing at the peak is no advice
            }
        }
        out.sort(Comparator.comparingLong((Measured x) -> -x.saves()));
        return out;
    }

    /** The report {@code advise} prints: the ranked findings, then the evidence of each. */
    public static List<Output> report(HloModule m, List<Measured> found) {
        long peak = m.liveness().peakBytes();
        Table.Builder t = Table.builder().title("advice (" + m.handle() + ")")
                .column("rank", ColumnType.INT).column("rule", ColumnType.STRING).column("saves", ColumnType.BYTES)
                .column("of_peak", ColumnType.PERCENT).column("finding", ColumnType.STRING).column("whatif", ColumnType.STRING);
        Table.Builder ev = Table.builder().title("evidence")
                .column("rank", ColumnType.INT).column("id", ColumnType.INT).column("label", ColumnType.STRING)
                .column("size", ColumnType.BYTES).column("shape", ColumnType.STRING).column("op_name", ColumnType.STRING)
                .column("source", ColumnType.STRING);
        Facts f = new Facts(m);
        int rank = 0;
        for (Measured x : found) {
            rank++;
            Advice a = x.advice();
            t.row((long) rank, a.rule(), x.saves(), peak == 0 ? null : (double) x.saves() / peak, a.finding(),
                    a.shown() == null ? null : "whatif " + a.shown());
            List<HloValue> vs = a.values();
            for (HloValue v : vs.subList(0, Math.min(EVIDENCE, vs.size()))) {
                ev.row((long) rank, v.id(), v.label(), v.size(), v.shape() == null ? null : v.shape().text(),
                        f.opName(v).isEmpty() ? null : f.opName(v), f.source(v));
            }
        }
        if (found.isEmpty()) t.note("no rule found anything to change");
        t.note("savings are peaks recomputed with whatif under the current schedule and offsets: bounds, not promises");
        return List.of(t.build(), ev.build());
    }
}
