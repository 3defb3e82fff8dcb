package bufq.shell.command;

import bufq.peak.ClaimedPeak;
import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.model.TotalBytes;
import bufq.liveness.Liveness;
import bufq.model.PeakClaim;
import bufq.shell.api.Command;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.Engine;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.io.IOException;
import java.util.List;

/** {@code summary}: one row per loaded module, its columns fixed by name. */
public final class SummaryCommand implements Command {
    @Override public String name() { return "summary"; }
    @Override public String synopsis() { return "summary"; }

    @Override public String brief() { return "One row per loaded module: sizes, counts, the peak and the dump's own label."; }

    @Override public String description() {
        return "One row per loaded module: backend, files read, counts, total_bytes (sum of allocation sizes, or the\n"
                + "report's stated total when sizes are only known rounded), the peak (peak_time: the first step with\n"
                + "the most occupied bytes; peak_bytes: the bytes occupied then, each byte of an allocation once), the\n"
                + "dump's own label (claimed_peak_time, claimed_peak_bytes: XLA's step and figure, which need not be\n"
                + "the maximum), and the number of load warnings so far: the Used values file (op_name, uses,\n"
                + "instructions) is read on first use, and its warnings count from then on (a note says when it is\n"
                + "unread). Peak columns are null without live ranges; a note says why a label differs from the peak.";
    }

    @Override public List<String> examples() { return List.of("summary", "bufq --format json -c summary DUMP_DIR"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.words(args, this::run);
    }

    private Status run(CommandContext ctx, List<String> args) throws CommandException, IOException, Engine.Failure {
        arity(args, 0, 0);
        Table.Builder b = header();
        int[] unread = {0};
        ctx.modules().forEachModule(m -> {
            row(b, m);
            if (!m.isRead(DumpPart.USED_VALUES)) unread[0]++;
        });
        if (unread[0] > 0) b.columnNote("warnings", unreadNote(unread[0]));
        ctx.out().print(b.build());
        return Status.OK;
    }

    /** The summary of {@code modules}, one row each in the given order. */
    public static Table table(List<HloModule> modules) {
        Table.Builder b = header();
        int unread = 0;
        for (HloModule m : modules) {
            row(b, m);
            if (!m.isRead(DumpPart.USED_VALUES)) unread++;
        }
        if (unread > 0) b.columnNote("warnings", unreadNote(unread));
        return b.build();
    }

    /** Says that warnings counts the parts read so far, when {@code unread} modules left one unread. */
    private static String unreadNote(int unread) {
        return "warnings: of the parts read so far; " + (unread == 1 ? "the" : unread + " modules'")
                + " Used values file (op_name, uses, instructions) is read on first use, its warnings then";
    }

    private static Table.Builder header() {
        return Table.builder()
                .column("module", ColumnType.STRING).column("backend", ColumnType.STRING)
                .optionalColumn("files", ColumnType.INT).optionalColumn("allocations", ColumnType.INT)
                .column("values", ColumnType.INT).optionalColumn("instructions", ColumnType.INT)
                .column("total_bytes", ColumnType.BYTES).column("peak_time", ColumnType.INT)
                .column("peak_bytes", ColumnType.BYTES).column("claimed_peak_time", ColumnType.INT)
                .column("claimed_peak_bytes", ColumnType.BYTES).column("warnings", ColumnType.INT)
                .column("peak_note", ColumnType.NOTE);
    }

    private static void row(Table.Builder b, HloModule m) {
        HloModule.Info info = m.info();
        PeakClaim claim = info.peakClaim();
        Liveness l = Liveness.of(m);
        int t = l.peakTime();
        String why = ClaimedPeak.note(m);
        b.row(m.handle(), info.backend(), (long) info.files().size(), (long) m.allocations().size(),
                (long) m.values().size(), (long) m.instructionCount(), totalBytes(m),
                t < 0 ? null : (long) t, t < 0 ? null : l.peakBytes(),
                claim == null ? null : (long) claim.time(), claim == null ? null : claim.claimedBytes(),
                (long) m.warningCount(), why);
        if (why != null) b.note(m.handle() + ": " + why);
    }

    /** The one definition {@code modules} shares ({@link TotalBytes}). */
    static Long totalBytes(HloModule m) {
        return TotalBytes.of(m);
    }
}
