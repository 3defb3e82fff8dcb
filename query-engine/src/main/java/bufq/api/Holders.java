package bufq.api;

import bufq.analysis.advise.ShardingAudit;
import bufq.analysis.blame.Blame;
import bufq.analysis.blame.BlameBy;
import bufq.analysis.category.Categories;
import bufq.analysis.category.CategoryRules;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.why.Why;
import bufq.analysis.why.WhyReport;
import bufq.dump.file.FileKind;
import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.LoadWarning;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The engine's answers to "who holds the memory": {@code blame} (bytes at a step by op_name, source,
 * opcode, stack, category, path or sharding) and {@code why} (what keeps one value alive).
 */
public final class Holders {
    private Holders() {}

    /**
     * What {@code blame} is asked.
     *
     * @param by       op_name (when null), source, opcode, stack, category, path or sharding
     * @param at       the step as the user named it, or null for the peak
     * @param depth    levels of an op_name path or a path tree, 0 for all
     * @param maxLines where a tree of text is cut, 0 for none
     */
    public record BlameAsk(String by, String at, int depth, int maxLines, Catalog catalog, TilingModel tiling,
                           Function<String, TilingModel> tilings) {}

    /**
     * The step {@code at} names, resolved by the client when blame needs it (not before its other
     * refusals), so that a bad step is shown under what the user typed.
     */
    @FunctionalInterface
    public interface StepOf<E extends Exception> {
        int resolve() throws E;
    }

    /**
     * {@code blame}: the bytes held at the step (or the peak), attributed as {@code ask.by} says.
     *
     * @throws IllegalArgumentException the message says why there is nothing to blame, or a category rule failed
     * @throws QueryException           when the sharding audit's what-if fails
     * @throws E                        when {@code step} does
     */
    public static <E extends Exception> List<Output> blame(HloModule m, BlameAsk ask, StepOf<E> step) throws QueryException, E {
        BlameBy by = ask.by() == null ? BlameBy.OP_NAME : BlameBy.parse(ask.by());
        if (by == null) throw new IllegalArgumentException("blame by " + ask.by() + ": unknown");
        String unreadable = m.info().hasValueDetails() || m.values().isEmpty() ? null : unreadableValuesFile(m);
        if (unreadable != null) throw new IllegalArgumentException(unreadable);
        int peak = Liveness.of(m).peakTime();
        if (ask.at() == null && peak < 0) return Blame.atPeak(m, by, ask.depth());   // says there is no peak
        if (by == BlameBy.SHARDING) {
            if (ask.at() != null) throw new IllegalArgumentException("blame by sharding measures the peak: it takes no 'at'");
            return ShardingAudit.report(m, ask.catalog(), ask.tiling(), ask.tilings());
        }
        int t = ask.at() == null ? peak : step.resolve();
        if (by == BlameBy.CATEGORY || by == BlameBy.PATH) {
            String at = ask.at() == null ? "peak" : ask.at();
            try {
                CategoryRules rules = ask.catalog().categories();
                return by == BlameBy.CATEGORY ? Categories.blame(m, rules, t, at) : Categories.paths(m, rules, t, at, ask.depth());
            } catch (CategoryRules.RuleFailure e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        if (ask.at() == null) return Blame.atPeak(m, by, ask.depth(), ask.maxLines());
        return Blame.at(m, by, ask.depth(), ask.maxLines(), t);
    }

    /**
     * When {@code m} has a Used values file that the load could not read (it skipped the file with a
     * warning saying why): that there is nothing to blame, naming the file and the reason. Null
     * otherwise; a dump written without the section keeps its report's own stack-trace tree.
     */
    static String unreadableValuesFile(HloModule m) {
        for (LoadWarning w : m.warnings()) {
            Path f = Path.of(w.file()).getFileName();
            if (f != null && FileKind.of(f.toString()) == FileKind.VALUES && w.message().contains("file skipped")) {
                String why = w.message().replace("; file skipped, the module is read from its other files", "");
                return "no op_name, source line or opcode to blame: " + (w.line() > 0 ? w.file() + ":" + w.line() : w.file())
                        + " could not be read at load: " + why;
            }
        }
        return null;
    }

    /** {@code why}: each value's parts (what it is, where born, uses, why it ends, idle, at the peak), in turn. */
    public static List<Output> why(HloModule m, List<HloValue> values) {
        List<Output> out = new ArrayList<>();
        for (WhyReport r : Why.of(m, values)) out.addAll(r.tables());
        return out;
    }

    /** {@link #why} of one value, its parts by their json keys ({@code what_it_is}, {@code born}, ...). */
    public static Map<String, Table> whyParts(HloModule m, HloValue v) {
        return Why.of(m, List.of(v)).get(0).parts();
    }
}
