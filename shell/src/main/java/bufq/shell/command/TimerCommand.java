package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Setting;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.util.List;

final class TimerCommand implements Command {
    @Override public String name() { return "timer"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("timer").positionalChoice("state", List.of("on", "off"), List.of("true", "false"));

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String description() { return "Prints the elapsed time after each result (on stderr). Same as 'set timer'."; }
    @Override public List<String> examples() { return List.of("timer on"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException {
        ctx.settings().set(Setting.TIMER, args.text("state"));
        return Status.OK;
    }
}
