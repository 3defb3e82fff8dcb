package bufq.shell.command;

import bufq.model.HloModule;
import bufq.shell.api.Command;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.util.List;

final class UseCommand implements Command {
    @Override public String name() { return "use"; }
    @Override public String synopsis() { return "use MODULE"; }

    @Override public String description() {
        return "Makes another loaded module current. MODULE is its handle, its number in 'modules', or a\n"
                + "prefix of the handle that matches only one module.";
    }

    @Override public List<String> examples() { return List.of("use jit_step", "use 2", "use jit_st"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.words(args, this::run);
    }

    private Status run(CommandContext ctx, List<String> args) throws CommandException, Engine.Failure {
        arity(args, 1, 1);
        HloModule m = ctx.modules().use(args.get(0));
        ctx.out().info("using " + m.handle());
        return Status.OK;
    }
}
