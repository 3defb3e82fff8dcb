package bufq.shell.command;

import bufq.analysis.diff.DiffOptions;
import bufq.analysis.diff.DiffResult;
import bufq.analysis.diff.ModuleDiff;
import bufq.analysis.diff.ModulePairs;
import bufq.model.Module;
import bufq.shell.CommandException;
import bufq.shell.Engine;
import bufq.shell.ModuleSet;
import bufq.shell.Shell;
import bufq.shell.Status;
import bufq.table.Output;
import bufq.table.TextBlock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

final class DiffCommand implements Command {
    @Override public String name() { return "diff"; }
    @Override public String synopsis() { return "diff BEFORE AFTER [--at-peak] [limit N]"; }
    @Override public String brief() { return "Compares two compilations: peaks, bytes by op_name and source, one-sided values."; }

    @Override public String description() {
        return "Compares two compilations of one program. BEFORE and AFTER are loaded modules (handle, number or\n"
                + "prefix) or paths to dumps; two directories are compared module by module, paired by program\n"
                + "name. Values are matched on what survives recompilation (op_name, source line, shape, role),\n"
                + "never on instruction names. Prints a summary (peaks, totals, per kind), bytes live at peak by\n"
                + "op_name and by source line, then values on one side only, largest first (N rows each, default\n"
                + "20). --at-peak limits the comparison to values live at each side's peak.";
    }

    @Override public List<String> examples() {
        return List.of("diff 1 2", "diff jit_step jit_step#2 --at-peak", "diff before/ after/ limit 10",
                "bufq --format markdown -c 'diff old/ new/'");
    }

    @Override public Status run(Shell shell, List<String> args) throws CommandException, IOException, Engine.Failure {
        CommandArgs a = new CommandArgs(args, synopsis());
        boolean atPeak = a.flag("--at-peak");
        OptionalInt limit = a.integer("limit", 1);
        String before = a.positional();
        String after = a.positional();
        a.done();
        if (before == null || after == null) throw new CommandException("usage: " + synopsis());
        DiffOptions options = DiffOptions.DEFAULT.withAtPeak(atPeak).withLimit(limit.orElse(DiffOptions.DEFAULT.limit()));
        List<Module> left = side(shell, before);
        List<Module> right = side(shell, after);
        ModulePairs.Result pairs = ModulePairs.pair(left, right);
        List<Output> out = new ArrayList<>();
        for (ModulePairs.Pair p : pairs.pairs()) {
            if (pairs.pairs().size() > 1) out.add(new TextBlock("== " + p.before().handle() + " vs " + p.after().handle()));
            DiffResult r = ModuleDiff.compare(p.before(), p.after(), options);
            out.addAll(r.outputs());
        }
        if (!pairs.onlyBefore().isEmpty() || !pairs.onlyAfter().isEmpty()) out.add(pairs.unpairedTable());
        shell.print(out);
        return Status.OK;
    }

    /** A loaded module by name, else the modules of a path (read for this comparison only). */
    private static List<Module> side(Shell shell, String arg) throws CommandException, Engine.Failure {
        CommandException notModule;
        try {
            ModuleSet.Entry e = shell.modules().find(arg);
            return List.of(shell.module(e));
        } catch (CommandException e) {
            notModule = e;
        }
        Path p = Path.of(arg);
        if (!Files.exists(p)) throw notModule;
        List<Module> out = new ArrayList<>();
        for (Engine.Source s : shell.engine().discover(List.of(p))) out.add(s.load());
        return out;
    }
}
