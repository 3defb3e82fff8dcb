package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ParsedArgs;
import bufq.api.Reports;
import bufq.shell.api.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.List;

final class PaddingCommand implements Command {
    @Override public String name() { return "padding"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("padding").count("limit", 0);

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Bytes lost to tiling padding: totals, worst values, by shape."; }

    @Override public String description() {
        return "For every value, its size under the current tiling model ('set tiling NAME') minus its logical size,\n"
                + "as the padded_size and padding fields: totals per colour, the worst values (beside the dump's\n"
                + "assigned size) and the padding grouped by shape and layout. Under the built-in tpu model on a TPU\n"
                + "dump the padded size is the dump's size=. A value assigned less than its logical size (a slice\n"
                + "of a larger buffer) holds no padding of its own and is left out. 'limit N' keeps the first N rows\n"
                + "of each table.";
    }

    @Override public List<String> examples() { return List.of("padding", "padding limit 5", "format markdown", "padding"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, false, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        var limit = a.count("limit");
        ctx.out().print(RowLimit.limited(Reports.padding(ctx.modules().requireFor("padding", ctx.out()::info), ctx.settings().tiling()), limit));
        return Status.OK;
    }
}
