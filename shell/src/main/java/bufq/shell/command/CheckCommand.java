package bufq.shell.command;

import bufq.api.Checking;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.List;

final class CheckCommand implements Command {
    @Override public String name() { return "check"; }

    private static final ArgGrammar GRAMMAR = ArgGrammar.of("check");

    @Override public ArgGrammar grammar() { return GRAMMAR; }
    @Override public String brief() { return "Consistency checks on the dump; fails (exit 1) when one finds an error."; }

    @Override public String description() {
        return "Runs the named checks (overlap, outside-allocation, padded-size, orphan-live-range, total-bytes,\n"
                + "peak-claim, duplicate-id, inverted-range), then those scripts registered with bufq.check, and\n"
                + "lists their findings with a\n"
                + "severity. The command fails, so a script or -c run exits 1, when any finding is an error;\n"
                + "warnings and notes do not fail it. With several modules loaded (a dump directory) every one\n"
                + "is checked: one table with a module column, a summary line per module and their total.";
    }

    @Override public List<String> examples() { return List.of("check", "bufq --bail -c check DUMP_DIR"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        // uses scripts: runs the checks the init script may register
        return CommandPlan.parsed(GRAMMAR, args, false, true, true, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException, Engine.Failure, IOException {
        ctx.modules().require();
        if (ctx.modules().set().size() > 1) return checkAll(ctx);
        return print(ctx, Checking.module(ctx.modules().require(), ctx.settings().tiling(), ctx.session().scriptChecks()));
    }

    /** Every module of the set, so {@code check DIR} in CI fails when any module has an error. */
    private static Status checkAll(CommandContext ctx) throws CommandException, Engine.Failure, IOException {
        Checking.Sweep all = new Checking.Sweep(ctx.settings().tiling(), ctx.session().scriptChecks());
        ctx.modules().forEachModule(all::add);
        return print(ctx, all.answer());
    }

    private static Status print(CommandContext ctx, Checking.Answer r) throws CommandException, IOException {
        ctx.out().print(r.outputs());
        // The table's last note is the summary; repeat it on stderr only where that note is not with
        // the results (an output file, a format without notes): else a terminal shows it twice.
        if (!ctx.out().notesWithResults()) ctx.out().info(r.summary());
        return r.errors() ? Status.ERROR : Status.OK;
    }
}
