package bufq.shell.command;

import bufq.analysis.Analyses;
import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Shell;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.List;

final class FragmentationCommand implements Command {
    @Override public String name() { return "fragmentation"; }
    @Override public String synopsis() { return "fragmentation"; }
    @Override public String brief() { return "Per allocation: size, peak of what is live in it, wasted bytes."; }

    @Override public String description() {
        return "For each allocation its size, the peak over time of the bytes of its values live at once, and the\n"
                + "difference (fragmentation); totals per colour.";
    }

    @Override public List<String> examples() { return List.of("fragmentation"); }

    @Override public Status run(Shell shell, List<String> args) throws CommandException, IOException {
        arity(args, 0, 0);
        shell.print(Analyses.fragmentation(shell.requireModule()));
        return Status.OK;
    }
}
