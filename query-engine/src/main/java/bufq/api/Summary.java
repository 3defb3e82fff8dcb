package bufq.api;

import bufq.analysis.category.Categories;
import bufq.analysis.category.CategoryRules;
import bufq.analysis.fit.JaxFigures;
import bufq.analysis.liveness.Liveness;
import bufq.dump.file.MemoryAnalysisFile;
import bufq.eval.Catalog;
import bufq.model.PartReadException;
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
import java.util.Map;

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
     * One module as a client lists it before reading it: {@code loaded} is null for a module not in
     * memory yet, whose row then shows only what the file names say.
     *
     * @param dumpId XLA's number for it ({@code module_0004}), or null
     */
    public record Listed(String handle, String name, boolean current, String dumpId, HloModule loaded, List<String> files) {
        public Listed {
            files = List.copyOf(files);
        }
    }

    /**
     * {@code modules}: one row per module with the handle and number {@code use} accepts, memory_analysis()'s
     * figures where the module is in memory, and notes for what is not known. The argument bytes by
     * category are by {@code catalog}'s rules; a module in memory should have its Used values read.
     *
     * @throws IllegalArgumentException when a category rule fails; the message names the module
     */
    public static Table modules(List<Listed> listed, Catalog catalog) {
        Table.Builder b = ModuleSummary.columns(Table.builder().key("modules").column("#", ColumnType.INT))
                .column("module_id", ColumnType.STRING).column("backend", ColumnType.STRING)
                .column("values", ColumnType.INT).column("in_memory", ColumnType.BOOL).column("files", ColumnType.LIST)
                .column("argument_bytes", ColumnType.BYTES).column("output_bytes", ColumnType.BYTES)
                .column("alias_bytes", ColumnType.BYTES).column("temp_bytes", ColumnType.BYTES)
                .column("code_bytes", ColumnType.BYTES).column("needs_bytes", ColumnType.BYTES)
                .column("weights_bytes", ColumnType.BYTES).column("optimizer_bytes", ColumnType.BYTES)
                .column("partitions", ColumnType.INT).column("replicas", ColumnType.INT);
        int unread = 0;
        boolean spaces = false;
        for (Listed e : listed) spaces |= e.loaded() != null && MemorySpace.several(e.loaded());
        if (spaces) b.column("other_spaces", ColumnType.STRING);
        List<String> notes = new ArrayList<>();
        boolean noCode = false;
        List<String> blind = new ArrayList<>();
        for (int i = 0; i < listed.size(); i++) {
            Listed e = listed.get(i);
            HloModule m = e.loaded();
            ProgramSizes z = m == null ? ProgramSizes.UNKNOWN : ProgramSizes.of(m);
            // without the Used values part (op_names, uses) the categories cannot tell a weight from an input
            boolean named = m != null && m.info().hasValueDetails();
            if (m != null && !named) blind.add(e.handle());
            if (m == null) unread++;
            noCode |= m != null && z.codeBytes() < 0;
            Map<String, Long> arguments = named ? arguments(m, catalog) : Map.of();
            List<Object> row = new ArrayList<>(List.of((long) (i + 1)));
            row.addAll(new ModuleSummary(e.handle(), e.name(), e.current()).cells());
            row.addAll(Arrays.asList(e.dumpId(),
                    m == null ? null : m.info().backend(), m == null ? null : (long) m.values().size(), m != null,
                    e.files(), orNull(z.argumentBytes()), orNull(z.outputBytes()), orNull(z.aliasBytes()),
                    orNull(z.tempBytes()), orNull(z.codeBytes()), orNull(z.needsBytes()),
                    named ? arguments.getOrDefault("weights", 0L) : null, named ? arguments.getOrDefault("optimizer", 0L) : null,
                    m == null ? null : Shardings.header(m).partitions(), m == null ? null : Shardings.header(m).replicas()));
            if (spaces) row.add(m == null ? null : MemorySpace.others(m, Units::human));
            b.row(row);
            if (m != null) {
                var jax = MemoryAnalysisFile.of(m);
                if (jax.isPresent()) for (String line : JaxFigures.compare(m, jax.get()).lines()) notes.add(e.handle() + ": " + line);
            }
        }
        if (unread > 0) b.note(unread + (unread == 1 ? " module is" : " modules are") + " not read yet: backend, values and the byte"
                + " columns are empty until it is ('use N', or 'fit', 'summary', 'modules where ...', which read them all)");
        if (noCode) b.columnNote("code_bytes", "code_bytes: no dump gives the generated code's size (JAX's memory_analysis() does)");
        if (!blind.isEmpty()) b.note("weights_bytes, optimizer_bytes: unknown for " + String.join(", ", blind)
                + ": the dump has no Used values (op_names, uses), which tell a weight from an input");
        for (String n : notes) b.note(n);
        return b.build();
    }

    /** The entry parameters' bytes by category; a failing rule is a one-line error. */
    private static Map<String, Long> arguments(HloModule m, Catalog catalog) {
        try {
            return Categories.of(m, catalog.categories()).parameterBytes(m);
        } catch (CategoryRules.RuleFailure | PartReadException.Unchecked e) {
            throw new IllegalArgumentException(m.handle() + ": " + e.getMessage(), e);
        }
    }

    private static Long orNull(long x) { return x < 0 ? null : x; }

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
