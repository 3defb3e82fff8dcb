package bufq.api;

import bufq.analysis.diff.DiffOptions;
import bufq.analysis.diff.DiffResult;
import bufq.analysis.diff.DiffTables;
import bufq.analysis.diff.Growth;
import bufq.analysis.diff.ModuleDiff;
import bufq.analysis.diff.ModulePairs;
import bufq.model.HloModule;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/** The engine's answer to "what changed between two compilations": {@code diff A B}, one pair or directories paired by program. */
public final class Diff {
    private Diff() {}

    /**
     * What a diff found.
     *
     * @param warning  said before the tables (two different programs compared), or null
     * @param tables   the comparison, pair by pair
     * @param guard    {@code --fail-over}'s needs_bytes per pair, or null when not asked
     * @param failures one line per reason the guard fails (a side cut short, a program grown more); empty when it passes
     */
    public record Answer(String warning, List<Output> tables, Table guard, List<String> failures) {
        public Answer {
            tables = List.copyOf(tables);
            failures = List.copyOf(failures);
        }
    }

    /**
     * Compares {@code before} with {@code after}: one module each, or the modules of two directories
     * paired by program name.
     *
     * @param atPeak   every part limited to values live at each side's peak
     * @param limit    rows per part, or empty for the default
     * @param failOver the needs_bytes growth in percent that fails, or NaN for no guard
     */
    public static Answer compare(List<HloModule> before, List<HloModule> after, boolean atPeak, OptionalInt limit, double failOver) {
        DiffOptions options = DiffOptions.DEFAULT.withAtPeak(atPeak);
        if (limit.isPresent()) options = options.withLimit(limit.getAsInt());
        if (before.size() == 1 && after.size() == 1) {
            String b = before.get(0).info().name(), af = after.get(0).info().name();
            // Values match by op_name, source, shape and role: across two programs most find no partner.
            String warning = b != null && af != null && !b.equals(af)
                    ? "warning: the programs differ (" + b + " vs " + af + "); a diff is meant for two builds"
                    + " of one program, so most values will have no partner" : null;
            List<Output> tables = DiffTables.render(ModuleDiff.compare(before.get(0), after.get(0), options));
            return guard(warning, tables, List.of(Growth.of(before.get(0), after.get(0))), failOver, before, after);
        }
        ModulePairs.Result pairs = ModulePairs.pair(before, after);
        List<Output> out = new ArrayList<>();
        for (var p : pairs.pairs()) {
            DiffResult r = ModuleDiff.compare(p.before(), p.after(), options);
            String title = p.before().handle() + " -> " + p.after().handle();
            for (Output o : DiffTables.render(r)) {
                out.add(o instanceof Table t ? t.withTitle(title + (t.title() == null ? "" : ": " + t.title())) : o);
            }
        }
        if (!pairs.onlyBefore().isEmpty() || !pairs.onlyAfter().isEmpty()) out.add(pairs.unpairedTable());
        List<Growth> growth = new ArrayList<>();
        for (var p : pairs.pairs()) growth.add(Growth.of(p.before(), p.after()));
        return guard(null, out, growth, failOver, before, after);
    }

    /**
     * {@code --fail-over PCT}: the needs_bytes of each pair, and a failure line per program grown more.
     * A side cut short fails the guard too: its figures cannot be trusted (a file cut before its temp
     * allocation shrinks, and passes).
     */
    private static Answer guard(String warning, List<Output> tables, List<Growth> growth, double failOver,
                                List<HloModule> before, List<HloModule> after) {
        if (Double.isNaN(failOver)) return new Answer(warning, tables, null, List.of());
        List<String> failures = new ArrayList<>();
        for (List<HloModule> side : List.of(before, after)) {
            for (HloModule m : side) {
                if (m.info().truncatedAt() == null) continue;
                failures.add("diff --fail-over: " + m.info().truncatedAt() + ": the dump ends early (truncated?): the guard cannot pass on it");
            }
        }
        for (Growth g : growth) if (g.over(failOver)) failures.add("diff: " + g.failure(failOver));
        return new Answer(warning, tables, Growth.table(growth, failOver), failures);
    }
}
