package bufq.shell.command;

import bufq.shell.api.Command;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.util.List;

final class QuitCommand implements Command {
    @Override public String name() { return "quit"; }
    @Override public List<String> aliases() { return List.of("exit"); }
    @Override public String synopsis() { return "quit"; }
    @Override public String description() { return "Leaves bufq (also 'exit', or Ctrl-D), publishing any 'output' file."; }
    @Override public List<String> examples() { return List.of("quit"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.words(args, this::run);
    }

    private Status run(CommandContext ctx, List<String> args) throws CommandException {
        arity(args, 0, 0);
        ctx.session().requestQuit();
        return Status.QUIT;
    }
}
