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

final class FragmentationCommand implements Command {
    @Override public String name() { return "fragmentation"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("fragmentation").count("limit", 0);

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Per allocation: size, peak of what is live in it, wasted bytes."; }

    @Override public String description() {
        return "For each allocation its size, the peak over time of the bytes of its values live at once, and the\n"
                + "difference (fragmentation); totals per colour. 'limit N' keeps the first N rows of each table.";
    }

    @Override public List<String> examples() { return List.of("fragmentation", "fragmentation limit 5"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, false, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        var limit = a.count("limit");
        ctx.out().print(RowLimit.limited(Reports.fragmentation(ctx.modules().requireFor("fragmentation", ctx.out()::info)), limit));
        return Status.OK;
    }
}
