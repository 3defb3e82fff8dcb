package bufq.shell.command;

import bufq.api.Holders;
import bufq.lang.QueryException;
import bufq.format.Formatters;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ParsedArgs;
import bufq.shell.api.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.List;
import java.util.OptionalInt;

final class BlameCommand implements Command {
    @Override public String name() { return "blame"; }
    /** The Used values section: op names, source lines and opcodes. */
    boolean readsUsedValues() { return true; }

    private static final ArgGrammar GRAMMAR = ArgGrammar.of("blame")
            .choice("by", List.of("op_name", "source", "opcode", "stack", "category", "path"), List.of("sharding"),
                    List.of("opname", "op", "src", "line", "stacks", "categories", "paths", "shardings", "shard"))
            .count("depth", 0).step("at", "claimed_peak").count("limit", 0);

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Who holds the peak: bytes by op_name, source, opcode, stack, category or path."; }

    @Override public String description() {
        return "Attributes the bytes occupied at the peak to framework op names (at every level of their '/' path,\n"
                + "down to depth N), to source file:line, or to opcodes, largest first; a byte two values share (a\n"
                + "hand-over, a buffer a loop aliases) counts once, for the value listed first at its offset. Then\n"
                + "the stack-trace tree (the dump's own, or rebuilt from the op names when the dump has none).\n"
                + "'by stack' uses each instruction's whole Python stack where the dump has one (proto dumps), at every\n"
                + "depth from the outermost frame, else its source line.\n"
                + "'by category' says what the memory is, by what the program does with it: every byte in one of weights,\n"
                + "optimizer, inputs, gathered weights, outputs, residuals, recomputed, gradients, cotangents, collectives,\n"
                + "constants, temporaries (rules in docs/commands.md; 'set category NAME = CONDITION'\n"
                + "adds your own), each row with its largest value and the query that lists its values. 'by path' folds\n"
                + "op_names and parameter paths that differ only in an index (params[*]['wq']) into one row with its count,\n"
                + "as a tree down to depth N. 'at STEP' (or claimed_peak) blames another step than the peak (the stack\n"
                + "tree is printed at the peak only). 'limit N' keeps the first N rows.\n"
                + "'by sharding' (kept out of the line above, which fits a line) is the replication audit of an SPMD module (its sharding read from the optimized HLO text\n"
                + "beside the dump): the entry parameters replicated, or cut fewer ways than the mesh has devices, grouped\n"
                + "by pytree leaf with their optimizer state (params['embed'] with opt_state[0].mu['embed'], ...) and the\n"
                + "values of their per-device shape (gradients, updates, a loop's copies), each with its bytes per device,\n"
                + "the bytes if cut over every device, and the peak saving measured with whatif (the line is printed).";
    }

    @Override public List<String> examples() {
        return List.of("blame", "blame by source", "blame by op_name depth 3", "blame by stack depth 4", "blame by category",
                "blame by path depth 2", "blame by category at 40", "blame by op_name limit 8", "blame by sharding");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, readsUsedValues(), this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        OptionalInt depth = a.count("depth"), limit = a.count("limit");
        String at = a.text("at");
        HloModule m = ctx.modules().requireFor("blame", ctx.out()::info);
        // The tree is text, which print does not cut: cut it at maxrows here, as tables are.
        int maxLines = Formatters.isHuman(ctx.out().format()) ? ctx.settings().maxRows() : 0;
        Holders.BlameAsk ask = new Holders.BlameAsk(a.text("by"), at, depth.orElse(0),
                maxLines, ctx.engine().catalog(), ctx.settings().tiling(), ctx.settings()::tilingNamed);
        try {
            ctx.out().print(RowLimit.limited(Holders.blame(m, ask, () -> a.step("at", m, "peak")), limit));
        } catch (IllegalArgumentException | QueryException e) {
            throw new CommandException(e.getMessage());
        }
        return Status.OK;
    }
}
