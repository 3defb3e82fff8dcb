package bufq.shell.command;

import bufq.analysis.Analyses;
import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Shell;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.List;

final class PaddingCommand implements Command {
    @Override public String name() { return "padding"; }
    @Override public String synopsis() { return "padding"; }
    @Override public String brief() { return "Bytes lost to tiling padding: totals, worst values, by shape."; }

    @Override public String description() {
        return "For every value, assigned size minus logical size (the tiling padding): totals per colour, the worst\n"
                + "values, and the padding grouped by shape and layout. 'set tiling NAME' adds that rule's figure.";
    }

    @Override public List<String> examples() { return List.of("padding", "format markdown", "padding"); }

    @Override public Status run(Shell shell, List<String> args) throws CommandException, IOException {
        arity(args, 0, 0);
        shell.print(Analyses.padding(shell.requireModule(), shell.settings().tiling()));
        return Status.OK;
    }
}
