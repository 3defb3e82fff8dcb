package bufq.shell.command;

import bufq.api.Summary;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** {@code summary}: one row per loaded module, its columns fixed by name. */
public final class SummaryCommand implements Command {
    @Override public String name() { return "summary"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("summary");

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "One row per loaded module: sizes, counts, the peak and the dump's own label."; }

    @Override public String description() {
        return "One row per loaded module: backend, files read, counts, total_bytes (sum of allocation sizes, or the\n"
                + "report's stated total when sizes are only known rounded), the peak (peak_time: the first step with\n"
                + "the most occupied bytes; peak_bytes: the bytes occupied then, each byte of an allocation once), the\n"
                + "dump's own label (claimed_peak_time, claimed_peak_bytes: XLA's step and figure, which need not be\n"
                + "the maximum), and the number of warnings of reading the files at load (the Used values file:\n"
                + "op_name, uses, instructions, is read on first use and prints its own warnings then, so summary\n"
                + "prints the same whatever ran before it). Peak columns are null without live ranges; a note says why a label differs from the peak.\n"
                + "Figures are of the device memory (color 0: HBM on TPU/GPU); a note gives each other memory space's bytes.";
    }

    @Override public List<String> examples() { return List.of("summary", "bufq --format json -c summary DUMP_DIR"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException, IOException, Engine.Failure {
        List<HloModule> modules = new ArrayList<>();
        ctx.modules().forEachModule(modules::add);
        ctx.out().print(Summary.of(modules, ctx.modules().current()));
        return Status.OK;
    }
}
