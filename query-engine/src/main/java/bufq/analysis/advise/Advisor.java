package bufq.analysis.advise;

import bufq.units.Units;
import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.analysis.liveness.Liveness;
import bufq.model.TilingModel;
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
                            + (twins.size() == 1 ? " at step " : "s at steps ") + steps(twins) + " at once)", a.edits(), a.values(), a.bytes(), a.jax(), a.effect());
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
}
