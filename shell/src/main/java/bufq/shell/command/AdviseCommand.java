package bufq.shell.command;

import bufq.api.Advise;
import bufq.api.Extensions;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;

/** {@code advise}: ranked suggestions, each measured with {@code whatif}. */
final class AdviseCommand implements Command {
    @Override public String name() { return "advise"; }
    /** The Used values section: rules name op_names, opcodes and uses. */
    boolean readsUsedValues() { return true; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("advise");

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "One ranked list of changes for the failing allocation or the peak."; }

    @Override public String description() {
        return "One ranked list of changes for one target: the allocation a loaded out-of-memory message\n"
                + "failed on, else the peak (the title says which). It merges the rules below (the telltale signs\n"
                + "of XLA's OOM guide) and the changes that shrink the target's allocation (chunk a huge temp;\n"
                + "in a training step microbatch its batch, along axis 1 of a scan's stacked values, or chunk the\n"
                + "rows of its [B, B] matrices, or a sum over an axis that is not the batch (a graph's edges\n"
                + "summed into its nodes); bf16/shard/donate it; a smaller batch where inputs such as a KV cache\n"
                + "fill the device; fit's drops of arrays held beside it). Of the rows that save what the program\n"
                + "is over, those that keep every result rank first. When no row saves that much, the fewest rows\n"
                + "that save it together are measured as one what-if and listed first as one row. A run that\n"
                + "failed on XLA:CPU must also save the process's own memory, which no dump shows (at least\n"
                + "1.4 GiB with jax loaded; 'set reserved SIZE' says it exactly). Rules:\n"
                + Advise.rules().stream().map(r -> "  " + String.format("%-14s", r.name()) + r.description())
                        .collect(Collectors.joining("\n"))
                + "\nEach row: the change, what it saves, the kind of figure, the JAX code to write (jax), the\n"
                + "finding and the 'whatif' line that reproduces it; then the evidence, by rank. Rows are ranked by\n"
                + "saves, which is never more than a real recompilation of that kind delivered on the backend:\n"
                + "'exact: whatif' (the peak recomputed under the edit, the schedule kept), 'exact: fit' (the\n"
                + "programs re-run without the arrays), 'upper bound: whatif' (the edit is the change's best case:\n"
                + "an offload's copies taking no time, a value not made at all) or 'estimate: recompilation'\n"
                + "(jax.checkpoint on XLA:CPU saves nothing, its recomputations are scheduled together; a scan\n"
                + "over checkpointed layers saves the what-if's figure / 1.18; sharding a weight the model reads,\n"
                + "x 0.77 for its all-gathered copies; a microbatch row counts the f32 gradients its scan carries;\n"
                + "on XLA:TPU no row claims more than brings the peak to 93% of the offer, as real rebuilds fill it;\n"
                + "whatif_saves is the edit's figure).\n"
                + "Findings saving less than " + String.format("%.1f%%", 100 * Advise.MIN_SHARE) + " of the peak are left out; the packing loss\n"
                + "(bytes reserved beyond the peak) is a note, not a change. A dump without live ranges has no\n"
                + "peak: advise says so and does nothing. In batch over several modules it takes the message's\n"
                + "module, else the largest needs_bytes, and says which on stderr (--module NAME picks another).\n"
                + "Scripts add rules with bufq.rule(name, fn) and read the same list with bufq.advise() (see\n"
                + "scripts/README.md). 'format markdown' first to paste it into an issue.";
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
        Advise.Answer list;
        try {
            list = Advise.answer(m, ask(ctx));
        } catch (QueryException e) {
            throw new Engine.Failure("advise: " + e.getMessage());
        } catch (Extensions.Failure e) {
            throw new CommandException("advise: " + e.getMessage());
        }
        if (list == null) {
            // Not an error: the dump was made without live ranges. Every rule measures the peak its
            // change lowers, so none applies; say so and which questions still have answers.
            ctx.out().info("advise: " + m.handle() + " has no live ranges, so no peak to lower and no rule applies"
                    + " (each measures a peak); sizes, padding and allocations still answer: try 'allocations' or 'values order by padding desc'");
            return Status.OK;
        }
        ctx.out().print(list.report());
        return Status.OK;
    }

    /** What advise reads of the session: its script rules, messages, modules and capacity. */
    static Advise.Request ask(CommandContext ctx) throws CommandException, Engine.Failure {
        List<HloModule> modules = ctx.modules().joinedToOom();
        FitCommand.checkCapacity(ctx.settings().capacitySaid());   // its refusal before any rule runs
        return new Advise.Request(ctx.session().scriptRules(), ctx.modules().oom(), modules, ctx.settings().capacitySaid(), ctx.engine().catalog(), ctx.settings().tiling(), ctx.settings()::tilingNamed);
    }
}
