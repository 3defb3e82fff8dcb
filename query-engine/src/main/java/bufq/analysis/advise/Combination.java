package bufq.analysis.advise;

import bufq.analysis.whatif.Edit;
import bufq.model.HloValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Changes made together, for a program over by more than any one change saves: the fewest rows whose
 * edits, applied as one what-if, save what it is over. A real mixture-of-experts step 43.1 GiB over
 * had an offload row bounded at 41.2 GiB: made alone it delivered 95% of that and left the program
 * over, while every row claimed less than it needed. Rows combine only where their figures do: exact
 * and upper-bound what-if figures (an estimate is a what-if cut to what real builds delivered, which
 * says nothing of two changes at once), never {@code fit}'s drops (measured over the set of programs,
 * not this one). Two rows may touch the same values when at least one of them only scales them (a
 * microbatch of halved values is a quarter of each; a microbatch of an offloaded residual is a smaller
 * residual offloaded): the scales are applied first. A value one row drops or donates is changed by
 * no other, and two rows that remake or move the same value do not combine. Three rows are listed
 * only where each adds to what two of them save.
 *
 * @param parts the rows made together, as they rank alone
 * @param edits their edits, the scales first
 * @param saves the peak they lower together, measured
 */
public record Combination(List<AdviceList.Row> parts, List<Edit> edits, long saves) {
    /** The peak saved under a list of edits, bytes; -1 when they cannot be measured together. */
    @FunctionalInterface
    public interface Measure {
        long saved(List<Edit> edits);
    }

    /** The combiner {@link AdviceList} asks, measuring with {@code measure}. */
    public static AdviceList.Combiner finder(Measure measure) {
        return (rows, edits, over, written) -> {
            Combination c = find(rows, edits, over, measure);
            return c == null ? null : new AdviceList.Combined(c.row(written), c.parts);
        };
    }

    /** Rows considered for a pair: the largest savers. */
    static final int PAIRS_FROM = 6;
    /** Rows considered for three at once, when no pair is enough. */
    static final int TRIPLES_FROM = 5;

    /**
     * The combination to list, or null: when {@code over} is known and no row saves it, the pair
     * (else the three) of rows that saves it, the surest first (every figure exact before any
     * bound), then the one that keeps every result (no bf16), then the one that saves most.
     */
    static Combination find(List<AdviceList.Row> rows, Map<AdviceList.Row, List<Edit>> edits, long over, Measure measure) {
        if (over <= 0) return null;
        List<AdviceList.Row> candidates = new ArrayList<>();
        for (AdviceList.Row r : rows) {
            if (r.saves() >= over) return null;   // one change is enough
            List<Edit> e = edits.get(r);
            if (e == null || e.isEmpty() || r.whatifSaves() == null || r.saves() <= 0) continue;
            if (!r.figure().equals(Recompilation.EXACT) && !r.figure().equals(Recompilation.BOUND)) continue;
            if (r.saves() != r.whatifSaves()) continue;   // a figure cut to what builds delivered
            candidates.add(r);
        }
        candidates.sort(Comparator.comparingLong((AdviceList.Row r) -> -r.saves()));
        Combination best = null;
        Map<Set<AdviceList.Row>, Long> pairs = new HashMap<>();
        for (int size = 2; size <= 3 && best == null; size++) {
            int from = Math.min(candidates.size(), size == 2 ? PAIRS_FROM : TRIPLES_FROM);
            for (List<AdviceList.Row> parts : subsets(candidates.subList(0, from), size)) {
                long upTo = 0;
                for (AdviceList.Row p : parts) upTo += p.saves();
                if (upTo < over || !compatible(parts, edits)) continue;   // even added up they fall short
                List<Edit> joint = new ArrayList<>();
                for (AdviceList.Row p : parts) for (Edit e : edits.get(p)) if (e instanceof Edit.Scale) joint.add(e);
                for (AdviceList.Row p : parts) for (Edit e : edits.get(p)) if (!(e instanceof Edit.Scale)) joint.add(e);
                long saved = measure.saved(joint);
                if (size == 2) pairs.put(Set.copyOf(parts), saved);
                if (size == 3 && !addsToEveryPair(parts, saved, pairs)) continue;
                if (saved < over) continue;
                Combination c = new Combination(parts, joint, saved);
                if (best == null || better(c, best)) best = c;
            }
        }
        return best;
    }

    private static boolean addsToEveryPair(List<AdviceList.Row> three, long saved, Map<Set<AdviceList.Row>, Long> pairs) {
        for (int i = 0; i < 3; i++) {
            Set<AdviceList.Row> pair = new HashSet<>(three);
            pair.remove(three.get(i));
            Long two = pairs.get(pair);
            if (two != null && two >= saved) return false;
        }
        return true;
    }

    private static boolean better(Combination a, Combination b) {
        int ta = a.exact() ? 0 : 1, tb = b.exact() ? 0 : 1;
        if (ta != tb) return ta < tb;
        if (a.changesResults() != b.changesResults()) return !a.changesResults();
        return a.saves > b.saves;
    }

    private boolean exact() {
        for (AdviceList.Row p : parts) if (!p.figure().equals(Recompilation.EXACT)) return false;
        return true;
    }

    private boolean changesResults() {
        for (AdviceList.Row p : parts) if (p.effect().changesResults()) return true;
        return false;
    }

    /**
     * Whether the rows can be made together: no two counts of one change, and two rows that share
     * values only where one of them merely scales them and the other keeps them (no drop, no
     * donation), and not both storing them in bf16 (a value halves once).
     */
    private static boolean compatible(List<AdviceList.Row> parts, Map<AdviceList.Row, List<Edit>> edits) {
        Set<String> names = new HashSet<>();
        for (AdviceList.Row p : parts) if (!names.add(p.change().replaceAll(" .*", ""))) return false;   // two counts of one change
        for (int i = 0; i < parts.size(); i++)
            for (int j = i + 1; j < parts.size(); j++) {
                AdviceList.Row x = parts.get(i), y = parts.get(j);
                Set<HloValue> shared = new HashSet<>(x.evidence());
                shared.retainAll(new HashSet<>(y.evidence()));
                if (shared.isEmpty()) continue;
                if (x.effect() == Advice.Effect.LOWERS_PRECISION && y.effect() == Advice.Effect.LOWERS_PRECISION) return false;
                List<Edit> a = edits.get(x), b = edits.get(y);
                if (!(allScale(a) && keepsValues(b) || allScale(b) && keepsValues(a))) return false;
            }
        return true;
    }

    /** Whether every value the edits change is still made and is the program's own: no drop, no donation. */
    private static boolean keepsValues(List<Edit> edits) {
        for (Edit e : edits) if (e instanceof Edit.Drop || e instanceof Edit.Donate) return false;
        return true;
    }

    private static boolean allScale(List<Edit> edits) {
        for (Edit e : edits) if (!(e instanceof Edit.Scale)) return false;
        return true;
    }

    private static List<List<AdviceList.Row>> subsets(List<AdviceList.Row> from, int size) {
        List<List<AdviceList.Row>> out = new ArrayList<>();
        int n = from.size();
        if (size == 2) {
            for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) out.add(List.of(from.get(i), from.get(j)));
        } else {
            for (int i = 0; i < n; i++) for (int j = i + 1; j < n; j++) for (int k = j + 1; k < n; k++)
                out.add(List.of(from.get(i), from.get(j), from.get(k)));
        }
        return out;
    }

    /** The row it is listed as, statement written by {@code written}. */
    private AdviceList.Row row(Function<List<Edit>, String> written) {
        List<String> names = new ArrayList<>(), jax = new ArrayList<>(), each = new ArrayList<>();
        Set<HloValue> values = new LinkedHashSet<>();
        boolean remat = false;
        Advice.Effect effect = Advice.Effect.KEEPS;   // what the set does to the results: a part's that changes them, if any
        for (AdviceList.Row p : parts) {
            if (!effect.changesResults() && p.effect() != Advice.Effect.KEEPS) effect = p.effect();
            names.add(p.change());
            jax.add(p.jax());
            each.add(p.change() + " " + bufq.units.Units.human(p.saves()));
            values.addAll(p.evidence());
            remat |= p.remat();
        }
        List<HloValue> evidence = new ArrayList<>(values);
        evidence.sort(Comparator.comparingLong(HloValue::size).reversed());
        String figure = exact() ? Recompilation.EXACT : Recompilation.BOUND;
        return new AdviceList.Row(String.join(" + ", names), saves, figure, saves, remat, effect, String.join("; and ", jax),
                "no single change saves what the program is over; made together (" + String.join(", ", each)
                        + " alone), measured as one what-if with the schedule kept: each row's own finding says what to write",
                "whatif " + written.apply(edits), evidence);
    }
}
