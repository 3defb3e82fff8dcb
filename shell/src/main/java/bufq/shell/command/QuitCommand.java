package bufq.shell.command;

import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Shell;
import bufq.shell.session.Status;

import java.util.List;

final class QuitCommand implements Command {
    @Override public String name() { return "quit"; }
    @Override public List<String> aliases() { return List.of("exit"); }
    @Override public String synopsis() { return "quit"; }
    @Override public String description() { return "Leaves bufq (also 'exit', or Ctrl-D), publishing any 'output' file."; }
    @Override public List<String> examples() { return List.of("quit"); }

    @Override public Status run(Shell shell, List<String> args) throws CommandException {
        arity(args, 0, 0);
        shell.requestQuit();
        return Status.QUIT;
    }
}
