package bufq.shell.command;

import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.util.List;

final class UseCommand implements Command {
    @Override public String name() { return "use"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("use").positional("MODULE", ArgKind.MODULE);

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String description() {
        return "Makes another loaded module current. MODULE is its handle, its number in 'modules', or a\n"
                + "prefix of the handle that matches only one module.";
    }

    @Override public List<String> examples() { return List.of("use jit_step", "use 2", "use jit_st"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException, Engine.Failure {
        HloModule m;
        try {
            m = ctx.modules().use(args.text("MODULE"));
        } catch (CommandException e) {
            throw args.error("MODULE", e.getMessage(), ctx.modules().set().entries().stream().map(x -> x.handle()).toList());
        }
        ctx.out().info("using " + m.handle());
        return Status.OK;
    }
}
