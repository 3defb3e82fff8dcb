package bufq.shell.command;

import bufq.shell.api.ParsedArgs;
import bufq.shell.api.ArgumentError;
import bufq.eval.Selection;
import bufq.lang.Diagnostic;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.api.Whatif;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code whatif EDIT [; EDIT ...] [; QUERY]}: the peak recomputed under edits of a copy of the live ranges and sizes. */
final class WhatifCommand implements Command {
    @Override public String name() { return "whatif"; }

    /**
     * The edits, made from the engine's one list of them ({@link Whatif#forms}), which its parser
     * reads too (scripts and advise use it as well): help lists these forms and completion follows them.
     */
    static final ArgGrammar EDIT = edits();

    private static final ArgGrammar GRAMMAR = ArgGrammar.of("whatif").rest("EDITS", "EDIT [; EDIT ...] [; QUERY]").parts(EDIT);

    /** What each edit does, by its name, for help. */
    private static final Map<String, String> DOES = new HashMap<>();

    static {
        for (Whatif.Form f : Whatif.forms()) DOES.put(f.word(), f.does());
    }

    /** One grammar per edit, each part of it as the engine names it. */
    private static ArgGrammar edits() {
        List<ArgGrammar> forms = new ArrayList<>();
        for (Whatif.Form f : Whatif.forms()) {
            ArgGrammar g = ArgGrammar.of(f.word());
            for (String part : f.parts()) {
                g = switch (part) {
                    case "where" -> g.condition("where", Whatif.ENTITY).as("COND").required();
                    case "at" -> g.step("at", "last_use").required();
                    case "by" -> g.value("by", ArgKind.FACTOR).required();
                    case "equals" -> g.value("=", ArgKind.SIZE).required();
                    case "param_or_where" -> g.oneOf(true, x -> x.positional("PARAM", ArgKind.TEXT).condition("where", Whatif.ENTITY).as("COND"));
                    case "tiling" -> g.positional("NAME", ArgKind.TILING);
                    default -> throw new IllegalStateException("whatif: no grammar for the part '" + part + "' of " + f.word());
                };
            }
            forms.add(g);
        }
        return ArgGrammar.forms(forms.toArray(ArgGrammar[]::new));
    }

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "Recomputes the peak with edited live ranges and sizes (remat, donation, dtype)."; }

    @Override public String description() {
        StringBuilder edits = new StringBuilder();
        for (ArgGrammar e : EDIT.forms())
            edits.append(String.format("  %-32s  %s%n", e.synopsis(), DOES.get(e.command())));   // rows hang in 80 columns
        return "Edits a copy of the module's live ranges and sizes, recomputes occupied bytes per step with the\n"
                + "same sweep as 'peak', and prints the peak before and after, what each edit saved, and the values\n"
                + "that leave or enter the peak set. The loaded module is not changed. Edits, separated by ';':\n"
                + edits
                + "An edit applies to the whole value: after remat, also to the part that comes back after the peak.\n"
                + "'donate where' changes (and counts) only the entry parameters among the values it selects.\n"
                + "A query after the edits (e.g. 'steps order by occupied_bytes desc limit 5') runs on the edited copy.\n"
                + "A what-if keeps the schedule and offsets: XLA's scheduler and buffer assignment are not re-run,\n"
                + "so the figure is a bound under the current schedule (the 'basis' column says so in every format).";
    }

    @Override public List<String> examples() {
        return List.of("whatif drop where size > 100MiB",
                "whatif remat where live at peak and op_name ~ \"jvp\"",
                "whatif scale where dtype = \"f32\" and size > 1MiB by 0.5; steps order by occupied_bytes desc limit 3",
                "whatif donate where allocation = 0");
    }

    /**
     * Parses the edits, their conditions and any query after them once: the plan reads exactly what
     * they read, and uses scripts when a condition or the query does not check against the fields
     * known now, or a {@code tiling NAME} edit names a model not known yet (the init script may define
     * them). Edits that do not parse read nothing and report their error when run.
     */
    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        ParsedArgs.Word edits = GRAMMAR.parse(args).word("EDITS");
        String text = edits.text();
        Whatif.Edits parsed;
        QueryException error;
        try {
            parsed = Whatif.Edits.parse(text, Set.copyOf(ctx.engine().entities()));
            error = null;
        } catch (QueryException e) {
            parsed = null;
            error = e;
        }
        return new Plan(edits, parsed, error, ctx);
    }

    private final class Plan implements CommandPlan {
        private final ParsedArgs.Word text;
        private final Whatif.Edits parsed;
        private final QueryException error;
        private final CommandContext ctx;
        /** The query after the edits, compiled once; null when there is none. */
        private final Engine.Compiled query;
        /** Each edit's condition, compiled once. */
        private final Map<Whatif.Condition, Selection> selections = new HashMap<>();

        Plan(ParsedArgs.Word text, Whatif.Edits parsed, QueryException error, CommandContext ctx) {
            this.text = text;
            this.parsed = parsed;
            this.error = error;
            this.ctx = ctx;
            this.query = parsed == null || parsed.query() == null ? null : ctx.engine().compile(parsed.query());
            if (parsed != null) {
                for (Whatif.Condition w : parsed.conditions())
                    selections.put(w, ctx.engine().where(Whatif.ENTITY, w.text(), w.offset()));
            }
        }

        @Override public boolean readsUsedValues() {
            return parsed != null && parsed.readsUsedValues(selections::get);
        }

        /** Its conditions and its query run under the query time limit. */
        @Override public boolean evaluatesConditions() { return true; }

        @Override public boolean usesScripts() {
            if (parsed == null) return false;
            if (query != null && !query.unresolved().isEmpty()) return true;
            for (String t : parsed.tilings()) if (ctx.settings().tilingNamed(t) == null) return true;
            for (Whatif.Condition w : parsed.conditions()) if (selections.get(w).unresolved()) return true;
            return false;
        }

        @Override public Status run(CommandContext c) throws CommandException, Engine.Failure, IOException {
            HloModule m = c.modules().requireFor("whatif", c.out()::info);
            if (readsUsedValues()) c.modules().readUsedValues(m);
            // the query after the edits, when it does not compile: its caret under the statement too
            Diagnostic problem = query == null ? null : query.current().problem();
            if (problem != null) {
                throw ArgumentError.within(text.start() + parsed.queryOffset(), problem);
            }
            try {
                if (error != null) throw error;
                // against the catalog as it is now: init.js may have defined a field a condition names
                Whatif.Result o = Whatif.run(m, parsed, w -> selections.get(w).against(c.engine().catalog()),
                        c.settings().tiling(), c.settings()::tilingNamed);
                c.out().print(o.report());
                if (query != null) c.out().print(query.current().run(o.editedModule(), c.settings().tiling(), null));
            } catch (QueryException e) {
                // drawn under the whole statement, as an argument's error is
                throw ArgumentError.within(text.start(), e.diagnostic());
            }
            return Status.OK;
        }
    }
}
