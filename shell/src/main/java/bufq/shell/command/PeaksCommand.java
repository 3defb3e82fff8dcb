package bufq.shell.command;

import bufq.api.Reports;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.ArgKind;
import bufq.shell.api.ParsedArgs;
import bufq.shell.api.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandPlan;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.List;

/** {@code peaks [color N | space NAME] [min_share P]}: every prominent peak of occupied bytes, not only the highest. */
final class PeaksCommand implements Command {
    @Override public String name() { return "peaks"; }
    /** The Used values section: the op_name prefixes holding each peak. */
    boolean readsUsedValues() { return true; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("peaks")
            .oneOf(false, g -> g.count("color", 0).value("space", ArgKind.SPACE))
            .value("min_share", ArgKind.SHARE).count("limit", 0);

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Every peak of occupied bytes whose prominence is at least P of the highest."; }

    @Override public String description() {
        return "Lists the local maxima of occupied bytes over the schedule whose prominence is at least P of the\n"
                + "highest (default 20%, as scipy.signal.find_peaks(prominence=max/5)), highest first: step, instruction,\n"
                + "bytes, prominence and the op_name prefixes holding most of it. The highest step is always listed,\n"
                + "even at an end of the schedule. P is a percentage (20%) or a fraction (0.2). 'live at peak(N)'\n"
                + "in a query selects what is live at row N of 'peaks'; with options, name them the same way:\n"
                + "'live at peak(N, color 1, min_share 5%)' is row N of 'peaks color 1 min_share 5%' (the table's note\n"
                + "prints the spelling). 'limit N' keeps the N highest.";
    }

    @Override public List<String> examples() {
        return List.of("peaks", "peaks min_share 5%", "peaks color 1", "peaks min_share 1% limit 3", "values where live at peak(2) order by size desc limit 5",
                "values where live at peak(2, min_share 5%) show count()");
    }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, readsUsedValues(), this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        var m = ctx.modules().requireFor("peaks", ctx.out()::info);
        var color = a.color(m);
        var limit = a.count("limit");
        ctx.out().print(RowLimit.limited(List.of(Reports.peaks(m, color, a.share("min_share", Reports.PEAKS_MIN_SHARE))), limit));
        return Status.OK;
    }
}
