package bufq.api;

import bufq.analysis.whatif.Edit;
import bufq.analysis.whatif.EditForm;
import bufq.analysis.whatif.EditParser;
import bufq.analysis.whatif.EditSweep;
import bufq.analysis.whatif.Outcome;
import bufq.eval.Catalog;
import bufq.eval.Selection;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The engine's answer to "what if": a module's peak recomputed under edits (drop, end, donate,
 * scale, size, remat, tiling), the schedule kept; the edited copy answers queries as a loaded module.
 */
public final class Whatif {
    private Whatif() {}

    /** The entity an edit's {@code where} condition selects from. */
    public static final String ENTITY = EditSweep.ENTITY;

    /** What a whatif's result is: a bound under the current schedule and offsets. */
    public static final String BOUND = Outcome.BOUND;

    /**
     * One edit a what-if takes: the word that starts it, what it does, and what follows the word, in
     * order: {@code where} (a condition on values), {@code at} (last_use, a step or an instruction),
     * {@code by} (a factor), {@code equals} ({@code = SIZE}), {@code param_or_where} (a parameter's
     * name or a condition), {@code tiling} (a model's name).
     */
    public record Form(String word, String does, List<String> parts) {
        public Form {
            parts = List.copyOf(parts);
        }
    }

    /** The edits, in the order help lists them: the one list the parser reads and a client's grammar is made from. */
    public static List<Form> forms() {
        List<Form> out = new ArrayList<>();
        for (EditForm f : EditForm.values())
            out.add(new Form(f.word(), f.does(), f.parts().stream().map(p -> p.name().toLowerCase(Locale.ROOT)).toList()));
        return out;
    }

    /** An edit's {@code where COND}: the condition and where it starts in the text parsed. */
    public record Condition(String text, int offset) {}

    /** Edits parsed once, with the query that may follow them. Immutable. */
    public static final class Edits {
        private final List<Edit> edits;
        private final String query;
        private final int queryOffset;

        private Edits(List<Edit> edits, String query, int queryOffset) {
            this.edits = List.copyOf(edits);
            this.query = query;
            this.queryOffset = queryOffset;
        }

        /**
         * Parses {@code text}: edits separated by {@code ,}, then optionally a query on one of
         * {@code entities} (none is taken when {@code entities} is empty).
         *
         * @throws QueryException with the span of what does not parse
         */
        public static Edits parse(String text, Set<String> entities) throws QueryException {
            EditParser.Parsed p = EditParser.parse(text, entities);
            return new Edits(p.edits(), p.query(), p.queryOffset());
        }

        /** The query after the edits, or null. */
        public String query() { return query; }

        /** Where {@link #query} starts in the text parsed. */
        public int queryOffset() { return queryOffset; }

        /** The {@code where} conditions of the edits, each to compile on {@link #ENTITY} once. */
        public List<Condition> conditions() {
            List<Condition> out = new ArrayList<>();
            for (Edit e : edits) if (e.where() != null) out.add(condition(e.where()));
            return out;
        }

        /** The tiling models the edits name ({@code tiling NAME}). */
        public List<String> tilings() {
            List<String> out = new ArrayList<>();
            for (Edit e : edits) if (e instanceof Edit.Tiling t) out.add(t.name());
            return out;
        }

        /**
         * Whether running them reads the Used values section, beyond the allocations and the live
         * ranges, {@code selections} being each condition compiled.
         */
        public boolean readsUsedValues(Function<Condition, Selection> selections) {
            return EditSweep.readsUsedValues(edits, query, w -> selections.apply(condition(w)));
        }

        /** As the what-if sweep takes them. */
        List<Edit> edits() { return edits; }

        private static Condition condition(Edit.Where w) {
            return new Condition(w.condition(), w.offset());
        }
    }

    /** A what-if run: its report, and the edited copy of the module. */
    public static final class Result {
        private final Outcome outcome;

        private Result(Outcome outcome) { this.outcome = outcome; }

        /** The peak before and after, and each edit's effect. */
        public List<Output> report() { return outcome.report(); }

        /** The module as edited, to query as a loaded one. */
        public HloModule editedModule() { return outcome.editedModule(); }
    }

    /**
     * Runs {@code edits} on {@code m}, each condition as {@code selections} compiled it.
     *
     * @throws QueryException when a condition fails or an edit does not apply
     */
    public static Result run(HloModule m, Edits edits, Function<Condition, Selection> selections, TilingModel tiling,
                             Function<String, TilingModel> tilings) throws QueryException {
        return new Result(EditSweep.run(m, edits.edits(), w -> selections.apply(Edits.condition(w)), tiling, tilings));
    }

    /** Runs {@code edits} on {@code m}, each condition compiled against {@code catalog}. */
    public static Result run(HloModule m, Edits edits, Catalog catalog, TilingModel tiling,
                             Function<String, TilingModel> tilings) throws QueryException {
        return new Result(EditSweep.run(m, edits.edits(), catalog, tiling, tilings));
    }
}
