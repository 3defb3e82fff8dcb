package bufq.shell.command;

import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.DumpPart;
import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Shell;
import bufq.shell.session.Status;
import bufq.whatif.Edit;
import bufq.whatif.EditParser;
import bufq.whatif.Outcome;
import bufq.whatif.EditSweep;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/** {@code whatif EDIT [; EDIT ...] [; QUERY]}: the peak recomputed under edits of a copy of the live ranges and sizes. */
final class WhatifCommand implements Command {
    @Override public String name() { return "whatif"; }
    /** At most the Used values section ({@link #needs(Shell, String)} says for given edits). */
    @Override public Set<DumpPart> needs() { return Set.of(DumpPart.USED_VALUES); }
    /** Its conditions (and a whatif's query) run under the query time limit. */
    @Override public boolean evaluatesConditions() { return true; }
    @Override public String synopsis() { return "whatif EDIT [; EDIT ...] [; QUERY]"; }

    @Override public String brief() { return "Recomputes the peak with edited live ranges and sizes (remat, donation, dtype)."; }

    @Override public String description() {
        return "Edits a copy of the module's live ranges and sizes, recomputes occupied bytes per step with the\n"
                + "same sweep as 'peak', and prints the peak before and after, what each edit saved, and the values\n"
                + "that leave or enter the peak set. The loaded module is not changed. Edits, separated by ';':\n"
                + "  drop where EXPR                 the values are not materialised\n"
                + "  end where EXPR at last_use      ranges end at the last use (or 'at STEP', 'at INSTRUCTION')\n"
                + "  remat where EXPR                freed after the last use before the peak, made again for the next use\n"
                + "  donate PARAM | donate where EXPR  parameters end at their last use (donate_argnums)\n"
                + "  scale where EXPR by F           sizes times F (0.5: f32 to bf16)\n"
                + "  size where EXPR = N             sizes set to N (e.g. 4MiB)\n"
                + "  tiling NAME                     every value sized by another tiling model\n"
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

    @Override public boolean rawArgs() { return true; }

    /** Exactly what these edits, their conditions and any query after them read. */
    @Override public Set<DumpPart> needs(Shell shell, String args) {
        try {
            EditParser.Parsed p = EditParser.parse(args, Set.copyOf(shell.engine().entities()));
            return EditSweep.needs(p.edits(), p.query(), shell.engine().catalog());
        } catch (QueryException e) {
            return Set.of();   // reported when it runs
        }
    }

    /**
     * Conditions or a query that do not check against the fields known now, or a {@code tiling NAME}
     * edit of a model not known yet: the init script may define them. Not for edits that do not parse.
     */
    @Override public boolean usesScripts(Shell shell, String args) {
        EditParser.Parsed p;
        try {
            p = EditParser.parse(args, Set.copyOf(shell.engine().entities()));
        } catch (QueryException e) {
            return false;
        }
        if (p.query() != null && shell.engine().unresolved(p.query())) return true;
        for (Edit e : p.edits()) {
            if (e instanceof Edit.Tiling t && shell.settings().tilingNamed(t.name()) == null) return true;
            if (e.where() != null && shell.engine().unresolved("values where " + e.where().condition())) return true;
        }
        return false;
    }

    @Override public Status run(Shell shell, List<String> args) throws CommandException, Engine.Failure, IOException {
        if (args.isEmpty() || args.get(0).isBlank()) throw new CommandException("usage: " + synopsis());
        String text = args.get(0);
        HloModule m = shell.requireModule();
        try {
            EditParser.Parsed p = EditParser.parse(text, Set.copyOf(shell.engine().entities()));
            Outcome o = EditSweep.run(m, p.edits(), shell.engine().catalog(), shell.settings().tiling(), shell.settings()::tilingNamed);
            shell.print(o.report());
            if (p.query() != null) shell.print(shell.engine().query(p.query(), o.editedModule(), shell.settings().tiling()));
        } catch (QueryException e) {
            throw new Engine.Failure(e.diagnostic().render(text));
        }
        return Status.OK;
    }
}
