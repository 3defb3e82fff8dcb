package bufq.shell.command;

import bufq.analysis.Analyses;
import bufq.analysis.CheckReport;
import bufq.analysis.CheckReports;
import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Shell;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

final class CheckCommand implements Command {
    @Override public String name() { return "check"; }

    @Override public String synopsis() { return "check"; }
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

    /** Yes: runs the checks the init script may register. */
    @Override public boolean usesScripts(Shell shell, String args) { return true; }

    @Override public Status run(Shell shell, List<String> args) throws CommandException, Engine.Failure, IOException {
        arity(args, 0, 0);
        shell.requireModule();
        if (shell.modules().size() > 1) return checkAll(shell);
        CheckReport r = Analyses.check(shell.requireModule(), shell.settings().tiling(), shell.scriptChecks());
        shell.print(r.outputs());
        // The table's last note is the summary; repeat it on stderr only where that note is not on
        // the screen (a pipe, an output file, a format without notes), or a terminal shows it twice.
        if (!shell.notesOnScreen()) shell.info(r.summary());
        return r.hasErrors() ? Status.ERROR : Status.OK;
    }

    /** Every module of the set, so {@code check DIR} in CI fails when any module has an error. */
    private static Status checkAll(Shell shell) throws CommandException, Engine.Failure, IOException {
        List<CheckReport> reports = new ArrayList<>();
        shell.forEachModule(m -> reports.add(Analyses.check(m, shell.settings().tiling(), shell.scriptChecks())));
        CheckReports all = new CheckReports(reports);
        shell.print(all.outputs());
        if (!shell.notesOnScreen()) shell.info(all.summary());
        return all.hasErrors() ? Status.ERROR : Status.OK;
    }
}
