package bufq.analysis.advise;

import bufq.units.Units;
import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.liveness.Liveness;
import bufq.model.TilingModel;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.analysis.whatif.Edit;
import bufq.analysis.whatif.Outcome;
import bufq.analysis.whatif.EditSweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
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
        public boolean lowersPeak() { return advice.measured(); }
    }

    /**
     * Every rule's findings that lower the peak by at least {@link #minimumSaving}, largest saving
     * first; then the findings measured otherwise (the packing loss), largest first.
     *
     * @throws QueryException when a rule's edit fails (a bug in the rule: its message names the rule)
     */
    public static List<Measured> run(HloModule m, List<Rule> rules, Catalog catalog, TilingModel tiling,
                                     Function<String, TilingModel> tilings) throws QueryException {
        return plan(m, rules, catalog, tiling, tilings).found();
    }

    /**
     * What {@link #plan} found, and its notes: which twin peaks blocked a fix of the peak alone and
     * were planned against with it.
     */
    public record Plan(List<Measured> found, List<Blocked> blocked) {
        public Plan {
            found = List.copyOf(found);
            blocked = List.copyOf(blocked);
        }

        /** The notes, each edit written with its values by id. */
        public List<String> notes() {
            return blocked.stream().map(b -> b.note(Edit::join)).toList();
        }
    }

    /**
     * A fix of the peak that a twin peak blocked: {@code lowered} bytes off the peak's own step
     * {@code peak}, then step {@code twin}, holding {@code share} of the peak, became the peak.
     */
    public record Blocked(Advice advice, int peak, long lowered, int twin, double share) {
        /** The note, each edit as {@code written} writes it. */
        public String note(Function<List<Edit>, String> written) {
            return String.format(Locale.ROOT, "%s: whatif %s lowers step %d by %s, but step %d, a twin peak holding %.1f%% as much,"
                    + " then becomes the peak; planned against both", advice.rule(), written.apply(advice.edits()), peak,
                    Units.human(lowered), twin, 100 * share);
        }
    }

    /** Rounds of twin peaks {@link #plan} adds at most (each round adds the peaks the last one's fixes moved to). */
    static final int TWIN_ROUNDS = 3;

    /**
     * As {@link #run}, planning against twin peaks: a fix that lowers the peak's own step by at
     * least {@link #minimumSaving} but saves less because the peak moves to another step nearly as
     * high (a twin) is blocked by that twin; the rules then run again on the values live at the peak
     * and at every such twin at once, so their edits change all of them jointly, and those that lower
     * the peak join the findings. The notes say which twin blocked what.
     */
    public static Plan plan(HloModule m, List<Rule> rules, Catalog catalog, TilingModel tiling,
                            Function<String, TilingModel> tilings) throws QueryException {
        if (Liveness.of(m).peakTime() < 0) return new Plan(List.of(), List.of());
        long floor = minimumSaving(Liveness.of(m).peakBytes());
        List<Measured> out = new ArrayList<>();
        List<Blocked> notes = new ArrayList<>();
        Set<String> edits = new HashSet<>();
        List<Integer> twins = new ArrayList<>();
        Facts facts = new Facts(m);
        for (int round = 0; round <= TWIN_ROUNDS; round++) {
            List<Integer> blockers = new ArrayList<>();
            for (Rule r : rules) {
                // Ctrl-C and the time limit (the shell interrupts the thread): between rules and edits measured
                if (Thread.currentThread().isInterrupted()) throw new CancellationException("advise cancelled");
                for (Advice a : r.find(facts)) {
                    if (Thread.currentThread().isInterrupted()) throw new CancellationException("advise cancelled");
                    if (a.measured() && !edits.add(a.rule() + "\0" + a.editText())) continue;   // an earlier round measured this edit
                    long saves = a.bytes();
                    if (a.measured()) {
                        Outcome o = EditSweep.run(m, a.edits(), catalog, tiling, tilings);
                        saves = o.saved();
                        if (saves < floor) {   // a sign that changes (next to) nothing at the peak is no advice...
                            Integer twin = blockingTwin(m, o, twins, floor);
                            // ...unless it works at the peak and the peak only moved to a twin
                            if (twin != null) {
                                if (!blockers.contains(twin)) blockers.add(twin);
                                notes.add(blockedNote(m, a, o, twin));
                            }
                            continue;
                        }
                    } else if (saves <= 0 || round > 0) {
                        continue;
                    }
                    if (round > 0) a = new Advice(a.rule(), a.finding() + " (planned against the peak and its twin"
                            + (twins.size() == 1 ? " at step " : "s at steps ") + steps(twins) + " at once)", a.edits(), a.values(), a.bytes());
                    out.add(new Measured(a, saves));
                }
            }
            if (blockers.isEmpty()) break;
            twins.addAll(blockers);
            facts = new Facts(m, twins);
        }
        out.sort(Comparator.comparing((Measured x) -> !x.lowersPeak()).thenComparingLong(x -> -x.saves()));
        return new Plan(out, notes);
    }

    /**
     * The step a fix moved the peak to when it lowered the peak's own step (and every twin planned
     * already) by at least {@code floor}: a twin that blocks it; null when the fix did not work there.
     */
    private static Integer blockingTwin(HloModule m, Outcome o, List<Integer> twins, long floor) {
        Liveness before = Liveness.of(m), after = o.after();
        int peak = before.peakTime();
        if (before.occupiedBytes(peak) - after.occupiedBytes(peak) < floor) return null;
        for (int t : twins) if (before.occupiedBytes(t) - after.occupiedBytes(t) < floor) return null;
        int moved = after.peakTime();
        if (moved == peak || twins.contains(moved) || !separate(before, peak, moved, floor)) return null;
        return moved;
    }

    /**
     * Whether steps {@code a} and {@code b} are two peaks rather than one plateau or slope: the
     * occupied bytes between them dip at least {@code floor} below the lower of the two. A fix that
     * moves the peak to the next step (a remat that leaves the value live next door) has no twin.
     */
    private static boolean separate(Liveness l, int a, int b, long floor) {
        long lower = Math.min(l.occupiedBytes(a), l.occupiedBytes(b));
        for (int t = Math.min(a, b) + 1; t < Math.max(a, b); t++) if (l.occupiedBytes(t) <= lower - floor) return true;
        return false;
    }

    private static Blocked blockedNote(HloModule m, Advice a, Outcome o, int twin) {
        Liveness before = Liveness.of(m);
        int peak = before.peakTime();
        long lowered = before.occupiedBytes(peak) - o.after().occupiedBytes(peak);
        return new Blocked(a, peak, lowered, twin, (double) before.occupiedBytes(twin) / before.peakBytes());
    }

    private static String steps(List<Integer> ts) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ts.size(); i++) b.append(i == 0 ? "" : i == ts.size() - 1 ? " and " : ", ").append(ts.get(i));
        return b.toString();
    }

    /**
     * The report {@code advise} prints: the findings that lower the peak, ranked, each with the full
     * {@code whatif} line that reproduces its saving; the packing loss apart (bytes reserved beyond
     * the peak, not a saving of it); then the evidence of each finding.
     */
    public static List<Output> report(HloModule m, List<Measured> found) {
        return report(m, new Plan(found, List.of()));
    }

    /** {@link #report(HloModule, List)} with the plan's notes (twin peaks that blocked a fix) under the findings. */
    public static List<Output> report(HloModule m, Plan plan) {
        return report(m, plan, 0, null);
    }

    /**
     * As {@link #report(HloModule, Plan)}, beside a remedy of {@code remedyChanges} changes for one
     * allocation: when no rule lowers the peak, the note says those changes are the ones found, so
     * the two tables never read as contradicting each other.
     */
    public static List<Output> report(HloModule m, Plan plan, int remedyChanges) {
        return report(m, plan, remedyChanges, null);
    }

    /** {@link #report(HloModule, Plan, int)} with each edit printed by {@code readable}; by id when null. */
    public static List<Output> report(HloModule m, Plan plan, int remedyChanges, ReadableEdits readable) {
        Function<List<Edit>, String> written = readable == null ? Edit::join : readable::render;
        // ranked by the figure shown: a recompilation estimate below what the what-if measured
        List<Measured> found = new ArrayList<>(plan.found());
        found.sort(Comparator.comparing((Measured x) -> !x.lowersPeak())
                .thenComparingLong(x -> x.lowersPeak() ? -Recompilation.of(m, x.advice(), x.saves()).saves() : -x.saves()));
        long peak = Liveness.of(m).peakBytes();
        Table.Builder t = Table.builder().key("advice").title("advice (" + m.handle() + ")")
                .column("rank", ColumnType.INT).column("rule", ColumnType.STRING).column("saves", ColumnType.BYTES)
                .column("peak_share", ColumnType.PERCENT).column("figure", ColumnType.STRING).column("whatif_saves", ColumnType.BYTES).column("finding", ColumnType.STRING)
                .column("whatif", ColumnType.STATEMENT).column("module", ColumnType.KEY);
        Table.Builder loss = Table.builder().key("beyond_the_peak").title("beyond the peak")
                .column("rank", ColumnType.INT).column("rule", ColumnType.STRING).column("reserved", ColumnType.BYTES)
                .column("finding", ColumnType.STRING).column("module", ColumnType.KEY);
        Table.Builder ev = Table.builder().key("evidence").title("evidence")
                .column("rank", ColumnType.INT).column("id", ColumnType.INT).column("label", ColumnType.STRING)
                .column("size", ColumnType.BYTES).column("shape", ColumnType.STRING).column("op_name", ColumnType.STRING)
                .column("source", ColumnType.STRING).column("module", ColumnType.KEY);
        Facts f = new Facts(m);
        int rank = 0, lowering = 0, beyond = 0;
        for (Measured x : found) {
            rank++;
            Advice a = x.advice();
            if (x.lowersPeak()) {
                lowering++;
                Recompilation.Figure fig = Recompilation.of(m, a, x.saves());
                t.row((long) rank, a.rule(), fig.saves(), peak == 0 ? null : (double) fig.saves() / peak, fig.kind(), x.saves(),
                        a.finding() + fig.finding(), "whatif " + written.apply(a.edits()), m.handle());
            } else {
                beyond++;
                loss.row((long) rank, a.rule(), x.saves(), a.finding(), m.handle());
            }
            List<HloValue> vs = a.values();
            for (HloValue v : vs.subList(0, Math.min(EVIDENCE, vs.size()))) {
                ev.row((long) rank, v.id(), v.label(), v.size(), v.shape() == null ? null : v.shape().text(),
                        f.opName(v).isEmpty() ? null : f.opName(v), f.source(v), m.handle());
            }
        }
        for (Blocked b : plan.blocked()) t.note("twin peak: " + b.note(written));
        if (lowering == 0) t.note("no rule found anything that lowers the peak by " + Units.human(minimumSaving(peak)) + " or more"
                + (plan.blocked().isEmpty() ? "" : ", even planned against its twin peaks")
                + (remedyChanges > 0 ? "; the remedy's " + remedyChanges + " change" + (remedyChanges == 1 ? "" : "s")
                        + " for one allocation are what was found" : ""));
        t.note("saves: 'exact: whatif' is the peak recomputed under the edit (a bound under the current schedule and offsets);"
                + " 'upper bound: whatif' the same where the edit is the best case of the change (an offload's copies taking no time);"
                + " 'estimate: recompilation' what a real jax.checkpoint build is expected to save, with its measured error;"
                + " whatif_saves is what the whatif line reproduces");
        List<Output> out = new ArrayList<>(List.of(t.build()));
        if (beyond > 0) {
            loss.note("bytes the allocations reserve beyond the peak of occupied bytes: packing loss, not a saving of the peak");
            out.add(loss.build());
        }
        out.add(ev.build());
        return out;
    }
}
