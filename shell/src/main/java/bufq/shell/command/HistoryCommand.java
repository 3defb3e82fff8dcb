package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.io.IOException;
import java.util.List;

final class HistoryCommand implements Command {
    @Override public String name() { return "history"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("history");

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String description() { return "Lists the statements entered, oldest first. In the interactive shell, earlier sessions (the saved history) come first."; }
    @Override public List<String> examples() { return List.of("history"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException, IOException {
        Table.Builder b = Table.builder().key("history").column("#", ColumnType.INT).column("statement", ColumnType.STATEMENT);
        List<String> h = ctx.session().history().entries();
        for (int i = 0; i < h.size(); i++) b.row((long) (i + 1), h.get(i));
        ctx.out().print(b.build());
        return Status.OK;
    }
}
