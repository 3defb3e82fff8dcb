package bufq.analysis.blame;

import bufq.analysis.liveness.OccupiedShares;
import bufq.model.HloModule;
import bufq.table.Output;

import java.util.List;

/**
 * {@code blame}: the bytes occupied at the peak (or a step) by op_name prefix, source line, opcode,
 * stack, category or folded path, each byte once ({@link OccupiedShares}), then the stack-trace tree
 * at the peak. Pure functions of a loaded module.
 */
public final class Blame {
    private Blame() {}

    /**
     * At the peak; without live ranges, one line saying there is no peak.
     *
     * @param depth    deepest op_name prefix level shown; 0 or less for all
     * @param maxLines the stack tree cut at this many node lines (0 = all)
     */
    public static List<Output> atPeak(HloModule m, BlameBy by, int depth, int maxLines) {
        return BlameReport.run(m, by, depth, maxLines);
    }

    /** As {@link #atPeak(HloModule, BlameBy, int, int)} with the whole stack tree. */
    public static List<Output> atPeak(HloModule m, BlameBy by, int depth) { return atPeak(m, by, depth, 0); }

    /**
     * As {@link #atPeak} at step {@code step} (from 0; the stack tree is printed at the peak alone).
     * {@code by category} and {@code by path} follow the built-in rules.
     */
    public static List<Output> at(HloModule m, BlameBy by, int depth, int maxLines, int step) {
        if (step < 0 || step >= m.steps()) throw new IllegalArgumentException("no step " + step + " in " + m.handle());
        return BlameReport.run(m, by, depth, maxLines, step);
    }

    /**
     * An op_name's levels as {@code blame by op_name} counts them: split at {@code /} outside
     * parentheses and brackets ({@code jit(f)/jvp(a/b)/div} has three).
     */
    public static List<String> opNamePath(String opName) { return BlameReport.splitOpName(opName); }
}
