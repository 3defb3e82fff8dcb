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

final class PeakCommand implements Command {
    @Override public String name() { return "peak"; }
    /** The Used values section: op names, and XLA's peak sized by instruction shapes. */
    boolean readsUsedValues() { return true; }

    private static final ArgGrammar GRAMMAR = ArgGrammar.of("peak")
            .oneOf(false, g -> g.count("color", 0).value("space", ArgKind.SPACE));

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "The peak of occupied bytes, beside the dump's label, and what is live then."; }

    @Override public String description() {
        return "The peak: the first step with the most occupied bytes (per allocation, each byte of the live values'\n"
                + "[offset, offset+size) once), overall and per colour, with the logical bytes live then, beside the\n"
                + "dump's own label (claimed_peak_time, claimed_peak_bytes; 'live at claimed_peak' in queries) and a\n"
                + "note saying why the two differ when they do; then the values live at the peak, largest first, with\n"
                + "their share, padding, shape, op_name and source line. Values under the 'threshold' setting fold\n"
                + "into one row. A colour none of whose values has a live range has no peak.\n"
                + "Memory spaces are kept apart: without 'color'/'space' the figures are of the device memory (color 0,\n"
                + "HBM on TPU/GPU, RAM on CPU), and a dump with several spaces (TPU: vmem, smem, host, host-offload) gets\n"
                + "one row per space, never a sum of them; 'peak space vmem' (or 'peak color 1') shows one space.";
    }

    @Override public List<String> examples() { return List.of("peak", "peak space vmem", "set threshold 1MiB"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, readsUsedValues(), this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs a) throws CommandException, Engine.Failure, IOException {
        var m = ctx.modules().requireFor("peak", ctx.out()::info);
        var color = a.color(m);
        ctx.out().print(Reports.peak(m, color, ctx.settings().threshold(), ctx.settings().tiling()));
        return Status.OK;
    }
}
