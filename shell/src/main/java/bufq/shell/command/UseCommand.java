package bufq.shell.command;

import bufq.model.HloModule;
import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Shell;
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

    @Override public Status run(Shell shell, List<String> args) throws CommandException, Engine.Failure {
        arity(args, 1, 1);
        HloModule m = shell.use(args.get(0));
        shell.info("using " + m.handle());
        return Status.OK;
    }
}
