package bufq.api;

import bufq.analysis.advise.AdviceList;
import bufq.analysis.advise.Advisor;
import bufq.analysis.advise.ReadableEdits;
import bufq.analysis.advise.Remedy;
import bufq.analysis.advise.Rule;
import bufq.analysis.advise.Rules;
import bufq.analysis.fit.Capacities;
import bufq.analysis.fit.Capacity;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.oom.OomText;
import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.TilingModel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The engine's answer to "what should I change": {@code advise}'s one ranked list for a module, the
 * same for every client (the shell's {@code advise}, a script's {@code bufq.advise()}).
 */
public final class Advise {
    private Advise() {}

    /**
     * What a client holds that advise reads.
     *
     * @param rules    rules beside the built-in ones (a script's), run after them
     * @param oom      the loaded out-of-memory messages, or null
     * @param source   how results name the messages' file ("run.log"), or null
     * @param modules  every loaded module in running order (the messages join to them)
     * @param capacity the capacity said, or null: then the one the messages state, if they state one
     */
    public record Ask(List<Rule> rules, OomText oom, String source, List<HloModule> modules, Capacity capacity,
                      Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings) {
        public Ask {
            rules = List.copyOf(rules);
            modules = List.copyOf(modules);
        }
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
        Capacity capacity = ask.capacity();
        if (capacity == null && ask.oom() != null) {
            // what the shell adopts on loading the messages: the capacity they state, never a guess
            Capacities.Stated stated = Capacities.stated(ask.oom(), ask.source(), Capacities.Said.NONE);
            if (stated != null) capacity = Capacities.resolve(new Capacities.Said(stated.choice(), null, -1, "none"));
        }
        Remedy.Answer remedy = Remedy.answer(m, ask.oom(), ask.source(), ask.modules(), capacity, ask.catalog(),
                ask.tiling(), ask.tilings());
        Advisor.Plan plan = Advisor.plan(m, rules, ask.catalog(), ask.tiling(), ask.tilings());
        return AdviceList.of(m, plan, remedy, new ReadableEdits(m, ask.catalog(), ask.tiling()));
    }
}
