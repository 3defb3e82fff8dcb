package bufq.api;

import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.PeakClaim;
import bufq.model.MemorySpace;
import bufq.model.ProgramSizes;
import bufq.analysis.peak.ClaimedPeak;
import bufq.analysis.sharding.Shardings;
import bufq.table.ColumnType;
import bufq.table.ModuleSummary;
import bufq.table.Table;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The engine's answer to "what is loaded": one row per module, its columns fixed by name. A client
 * (the shell's {@code summary}, a script) asks for it with the modules it holds.
 */
public final class Summary {
    private Summary() {}

    /**
     * The summary of {@code modules}, one row each in the given order; {@code current} (or null)
     * is the session's current module, marked as the {@code modules} command marks it.
     */
    public static Table of(List<HloModule> modules, HloModule current) {
        Table.Builder b = header();
        for (HloModule m : modules) row(b, m, current != null && m.handle().equals(current.handle()));
        return b.build();
    }

    /**
     * The warnings of reading what every load reads: not those of the Used values part, read on
     * first use and printed then, so that summary prints the same whatever ran before it.
     */
    private static long loadWarnings(HloModule m) {
        return m.warningCount() - m.usedValues().warningCount();
    }

    private static Table.Builder header() {
        return ModuleSummary.columns(Table.builder().key("summary")).column("backend", ColumnType.STRING)
                .optionalColumn("files", ColumnType.INT).optionalColumn("allocations", ColumnType.INT)
                .column("values", ColumnType.INT).optionalColumn("instructions", ColumnType.INT)
                .column("total_bytes", ColumnType.BYTES).column("peak_time", ColumnType.INT)
                .column("peak_bytes", ColumnType.BYTES).column("claimed_peak_time", ColumnType.INT)
                .column("claimed_peak_bytes", ColumnType.BYTES).column("warnings", ColumnType.INT)
                .column("peak_note", ColumnType.NOTE);
    }

    private static void row(Table.Builder b, HloModule m, boolean current) {
        HloModule.Info info = m.info();
        PeakClaim claim = info.peakClaim();
        Liveness l = Liveness.of(m);
        int t = l.peakTime();
        String why = ClaimedPeak.note(m);
        List<Object> row = new ArrayList<>(new ModuleSummary(m.handle(), info.name(), current).cells());
        row.addAll(Arrays.asList(info.backend(), (long) info.files().size(), (long) m.allocations().size(),
                (long) m.values().size(), (long) m.instructionCount(), totalBytes(m),
                t < 0 ? null : (long) t, t < 0 ? null : l.peakBytes(),
                claim == null ? null : (long) claim.time(), claim == null ? null : claim.claimedBytes(),
                loadWarnings(m), why));
        b.row(row);
        if (why != null) b.note(m.handle() + ": " + why);
        String others = MemorySpace.others(m, Units::human);
        if (others != null) b.note(m.handle() + ": total_bytes and the peak are of " + MemorySpace.name(m, MemorySpace.DEVICE)
                + " (color 0, the device memory); the other memory spaces, each on its own: " + others);
        Shardings sh = Shardings.header(m);
        String perDevice = sh.perDeviceNote();
        if (perDevice != null) b.note(m.handle() + ": " + perDevice);
        // an accelerator's program is often sharded: without its HLO text, say which file would tell
        else if (!sh.known() && ("tpu".equals(info.backend()) || "gpu".equals(info.backend())))
            b.note(m.handle() + ": sharding unknown (one device's figures, of how many?): " + sh.missing());
    }

    /** The one definition {@code modules} shares ({@link ProgramSizes#totalBytes}). */
    private static Long totalBytes(HloModule m) {
        return ProgramSizes.totalBytes(m);
    }
}
