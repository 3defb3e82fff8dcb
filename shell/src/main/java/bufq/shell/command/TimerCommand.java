package bufq.shell.command;

import bufq.shell.api.Command;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Setting;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.util.List;

final class TimerCommand implements Command {
    @Override public String name() { return "timer"; }
    @Override public String synopsis() { return "timer on|off"; }
    @Override public String description() { return "Prints the elapsed time after each result (on stderr). Same as 'set timer'."; }
    @Override public List<String> examples() { return List.of("timer on"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.words(args, this::run);
    }

    private Status run(CommandContext ctx, List<String> args) throws CommandException {
        arity(args, 1, 1);
        ctx.settings().set(Setting.TIMER, args.get(0));
        return Status.OK;
    }
}
