package bufq.api;

import bufq.analysis.advise.AdviceList;
import bufq.analysis.advise.Advisor;
import bufq.analysis.advise.Combination;
import bufq.analysis.advise.Remedy;
import bufq.analysis.advise.Rule;
import bufq.analysis.advise.Rules;
import bufq.analysis.fit.Capacity;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.oom.OomText;
import bufq.analysis.whatif.EditSweep;
import bufq.analysis.whatif.ReadableEdits;
import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The engine's answer to "what should I change": {@code advise}'s one ranked list for a module, the
 * same for every client (the shell's {@code advise}, a script's {@code bufq.advise()}), asked with
 * plain values ({@link #answer}); {@link #of} is the same list in the analysis' own types.
 */
public final class Advise {
    private Advise() {}

    /** Findings saving less than this share of the peak are left out. */
    public static final double MIN_SHARE = Advisor.MIN_SHARE;

    /** A built-in rule, as {@code help advise} lists it. */
    public record RuleInfo(String name, String description) {}

    /** The built-in rules, in the order they run. */
    public static List<RuleInfo> rules() {
        List<RuleInfo> out = new ArrayList<>();
        for (Rule r : Rules.standard()) out.add(new RuleInfo(r.name(), r.description()));
        return out;
    }

    /**
     * What a client holds that advise reads.
     *
     * @param rules    rules beside the built-in ones (a script's), run after them
     * @param oom      the loaded out-of-memory messages, or null
     * @param source   how results name the messages' file ("run.log"), or null
     * @param modules  every loaded module in running order (the messages join to them)
     * @param capacity the capacity said (a client adopts the one the messages state with {@link OomLog#adopt}
     *                 when its user set none), or null: then only the messages' figures bound it, as in {@code fit}
     */
    public record Ask(List<Rule> rules, OomText oom, String source, List<HloModule> modules, Capacity capacity,
                      Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings) {
        public Ask {
            rules = List.copyOf(rules);
            modules = List.copyOf(modules);
        }
    }

    /**
     * What a client asks advise, as plain values.
     *
     * @param rules    rules beside the built-in ones (a script's), run after them
     * @param oom      the loaded out-of-memory messages, or null
     * @param modules  every loaded module in running order (the messages join to them)
     * @param capacity what the client says of the capacity; where it says none, the one the messages state, if they state one
     */
    public record Request(List<Extensions.AdviseRule> rules, OomLog oom, List<HloModule> modules, CapacitySaid capacity,
                          Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings) {
        public Request {
            rules = List.copyOf(rules);
            modules = List.copyOf(modules);
        }
    }

    /**
     * The ranked list as a client prints it.
     *
     * @param report the advice and its evidence, by rank
     * @param title  what it is for (the allocation a message failed on, or the peak)
     * @param notes  what the list leaves out and why
     */
    public record Answer(List<Output> report, String title, List<String> notes) {
        public Answer {
            report = List.copyOf(report);
            notes = List.copyOf(notes);
        }
    }

    /**
     * The list for {@code m} as {@code r} asks it; null when {@code m} has no live ranges.
     *
     * @throws QueryException             when a rule's edit fails
     * @throws IllegalArgumentException   when the capacity does not resolve (the reservation not below it)
     * @throws Extensions.Failure         when a client's rule fails
     */
    public static Answer answer(HloModule m, Request r) throws QueryException {
        Ask ask = new Ask(Extensions.rules(r.rules()), r.oom() == null ? null : r.oom().text(), r.oom() == null ? null : r.oom().source(),
                r.modules(), r.capacity().resolve(), r.catalog(), r.tiling(), r.tilings());
        AdviceList list;
        try {
            list = of(m, ask);
        } catch (Rule.RuleFailure e) {
            throw new Extensions.Failure(e.getMessage());
        }
        return list == null ? null : new Answer(list.report(), list.title(), list.notes());
    }

    /**
     * The list for {@code m}: for the allocation a loaded message failed on, else for the peak; null
     * when {@code m} has no live ranges (no peak to lower, so no rule applies).
     *
     * @throws QueryException when a rule's edit fails
     */
    public static AdviceList of(HloModule m, Ask ask) throws QueryException {
        if (Liveness.of(m).peakTime() < 0) return null;
        List<Rule> rules = new ArrayList<>(Rules.standard());
        rules.addAll(ask.rules());
        Remedy.Answer remedy = Remedy.answer(m, ask.oom(), ask.source(), ask.modules(), ask.capacity(), ask.catalog(),
                ask.tiling(), ask.tilings());
        Advisor.Plan plan = Advisor.plan(m, rules, ask.catalog(), ask.tiling(), ask.tilings());
        // changes made together are measured as one what-if; a set whose edits do not run together is not proposed
        return AdviceList.of(m, plan, remedy, new ReadableEdits(m, ask.catalog(), ask.tiling()), Combination.finder(edits -> {
            try {
                return EditSweep.run(m, edits, ask.catalog(), ask.tiling(), ask.tilings()).saved();
            } catch (QueryException e) {
                return -1;
            }
        }));
    }
}
