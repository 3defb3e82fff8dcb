package bufq.shell.command;

import bufq.analysis.liveness.Liveness;
import bufq.analysis.advise.Advisor;
import bufq.analysis.advise.ReadableEdits;
import bufq.analysis.advise.Remedies;
import bufq.analysis.advise.Rule;
import bufq.analysis.advise.Rules;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.shell.session.Modules;
import bufq.table.Output;
import bufq.table.Table;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** {@code advise}: ranked suggestions, each measured with {@code whatif}. */
final class AdviseCommand implements Command {
    @Override public String name() { return "advise"; }
    /** The Used values section: rules name op_names, opcodes and uses. */
    boolean readsUsedValues() { return true; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("advise");

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "Ranked changes that would lower the peak, each measured with whatif."; }

    @Override public String description() {
        return "Looks for the telltale signs of XLA's OOM guide and measures each with 'whatif' (the peak\n"
                + "recomputed under the change, never estimated); lists them by bytes saved, with the 'whatif'\n"
                + "line that reproduces each and the values behind it. Rules:\n"
                + Rules.standard().stream().map(r -> "  " + String.format("%-14s", r.name()) + r.description())
                        .collect(Collectors.joining("\n"))
                + "\nFindings saving less than " + String.format("%.1f%%", 100 * Advisor.MIN_SHARE) + " of the peak are left out. The packing loss\n"
                + "(bytes the allocations reserve beyond the peak) is listed apart: it is not a saving of the peak.\n"
                + "A dump without live ranges has no peak: advise says so and does nothing.\n"
                + "Each row says what kind of figure 'saves' is: 'exact: whatif' (the peak recomputed under the\n"
                + "edit), 'upper bound: whatif' (the edit is the change's best case: offload's copies taking no\n"
                + "time, so the real change saves at most this, never more than the residuals' bytes at the peak)\n"
                + "or 'estimate: recompilation' (remat, remat-policy: jax.checkpoint on XLA:CPU saves nothing, its\n"
                + "recomputations are scheduled together; whatif_saves is the edit's figure).\n"
                + "Then the remedy for one allocation: the one a loaded out-of-memory message failed on (listed\n"
                + "first), else the largest at the peak: what holds it (op_name, source) and the changes that shrink\n"
                + "it, each measured (chunk a huge temp, bf16/shard/donate an output, fit's drops of arrays held\n"
                + "beside it). In batch over several modules it takes the message's module, else the largest\n"
                + "needs_bytes, and says which on stderr (--module NAME picks another).\n"
                + "Scripts add rules with bufq.rule(name, fn) (see scripts/README.md). 'format markdown' first to\n"
                + "paste it into an issue.";
    }

    @Override public List<String> examples() { return List.of("advise", "format markdown", "advise"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        // uses scripts: runs the rules the init script may register
        // Its rules run the user's conditions and scripts: under the query time limit.
        return CommandPlan.timed(CommandPlan.parsed(GRAMMAR, args, readsUsedValues(), true, true, this::run));
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException, Engine.Failure, IOException {
        HloModule m = ctx.modules().requireFor("advise", ctx.out()::info);
        ctx.modules().readUsedValues(m);
        List<Output> out = new ArrayList<>();
        try {
            List<Output> remedy = remedy(ctx, m);
            boolean named = ctx.modules().oom() != null && !remedy.isEmpty() && ((Table) remedy.get(0)).title().contains(" failed on)");
            if (named) out.addAll(remedy);
            if (Liveness.of(m).peakTime() < 0) {
                // Not an error: the dump was made without live ranges. Every rule measures the peak its
                // change lowers, so none applies; say so and which questions still have answers.
                ctx.out().info("advise: " + m.handle() + " has no live ranges, so no peak to lower and no rule applies"
                        + " (each measures a peak); sizes, padding and allocations still answer: try 'allocations' or 'values order by padding desc'");
                ctx.out().print(out);
                return Status.OK;
            }
            List<Rule> rules = new ArrayList<>(Rules.standard());
            rules.addAll(ctx.session().scriptRules());
            int remedyChanges = remedy.isEmpty() ? 0 : ((Table) remedy.get(0)).size();
            out.addAll(Advisor.report(m, Advisor.plan(m, rules, ctx.engine().catalog(), ctx.settings().tiling(),
                    ctx.settings()::tilingNamed), remedyChanges, new ReadableEdits(m, ctx.engine().catalog(), ctx.settings().tiling())));
            if (!named) out.addAll(remedy);
        } catch (QueryException e) {
            throw new Engine.Failure("advise: " + e.getMessage());
        } catch (Rule.RuleFailure e) {
            throw new CommandException("advise: " + e.getMessage());
        }
        ctx.out().print(out);
        return Status.OK;
    }

    /** The remedy for {@code m} ({@link Remedies#answer}): the session's messages, modules and capacity. */
    private static List<Output> remedy(CommandContext ctx, HloModule m) throws CommandException, Engine.Failure, QueryException {
        Modules.LoadedOom o = ctx.modules().oom();
        List<HloModule> modules = new ArrayList<>();
        if (o != null) ctx.modules().forEachModule(modules::add);
        return Remedies.answer(m, o == null ? null : o.text(), o == null ? null : o.source(), modules,
                FitCommand.capacityOrNull(ctx), ctx.engine().catalog(), ctx.settings().tiling(), ctx.settings()::tilingNamed);
    }
}
