package bufq.shell.command;

import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.util.List;

final class QuitCommand implements Command {
    @Override public String name() { return "quit"; }
    @Override public List<String> aliases() { return List.of("exit"); }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("quit");

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String description() { return "Leaves bufq (also 'exit', or Ctrl-D), publishing any 'output' file."; }
    @Override public List<String> examples() { return List.of("quit"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException {
        ctx.session().requestQuit();
        return Status.QUIT;
    }
}
