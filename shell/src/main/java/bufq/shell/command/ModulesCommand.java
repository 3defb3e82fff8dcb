package bufq.shell.command;

import bufq.analysis.category.Categories;
import bufq.analysis.category.CategoryRules;
import bufq.dump.file.MemoryAnalysisFile;
import bufq.analysis.fit.JaxFigures;
import bufq.model.MemorySpace;
import bufq.units.Units;
import bufq.model.PartReadException;
import bufq.model.ProgramSizes;
import bufq.analysis.sharding.Shardings;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.ModuleSet;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;
import bufq.table.ColumnType;
import bufq.table.ModuleSummary;
import bufq.table.Table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

final class ModulesCommand implements Command {
    @Override public String name() { return "modules"; }
    private static final ArgGrammar GRAMMAR = ArgGrammar.of("modules");

    @Override public ArgGrammar grammar() { return GRAMMAR; }

    @Override public String brief() { return "Lists the loaded modules; current is true for the current one."; }

    @Override public String description() {
        return "Lists the loaded modules with the handle and number 'use' accepts, the program name and current\n"
                + "(true for the current one): the columns summary and the query 'modules' lead with too.\n"
                + "module_id is XLA's number for it (module_0004 in a dump's file names, the program id in a capture).\n"
                + "Modules of a big directory are read when first used: backend, values and the byte columns show\n"
                + "once they are: 'fit', 'summary' and the query 'modules where ...' read them all.\n"
                + "argument_bytes, output_bytes, alias_bytes, temp_bytes and code_bytes are JAX's memory_analysis()\n"
                + "figures read from the allocations (empty where the dump does not say); needs_bytes is what a run\n"
                + "asks the device for: code + arguments + outputs - aliases + temp + constants (see 'fit').\n"
                + "weights_bytes and optimizer_bytes are the arguments' bytes by category (blame by category): the entry\n"
                + "parameters under params/model/weights and under opt_state/optimizer roots, by the session's rules\n"
                + "(the op_names of each module in memory are read for them).\n"
                + "partitions and replicas are num_partitions and replica_count of the optimized HLO text beside the dump\n"
                + "(*after_optimizations.txt, or .gz): one SPMD program serves that many devices, and every size is one\n"
                + "device's; 1 without that text.\n"
                + "Memory spaces: the byte columns are of the device memory (color 0: HBM on TPU/GPU, RAM on CPU), as\n"
                + "memory_analysis()'s are; a module with other spaces (TPU VMEM, SMEM, host offload) gets other_spaces,\n"
                + "each space's allocation bytes on its own, never added to the device figures. Where a\n"
                + "memory_analysis.json (JAX's own figures) lies beside a dump, a note holds the module to it.";
    }

    @Override public List<String> examples() { return List.of("modules"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.parsed(GRAMMAR, args, this::run);
    }

    private Status run(CommandContext ctx, ParsedArgs args) throws CommandException, IOException {
        // Lists what is known without reading: a big directory's modules not in memory show no
        // backend, values nor byte columns (reading 2,000 modules to list them took seconds).
        Table.Builder b = ModuleSummary.columns(Table.builder().key("modules").column("#", ColumnType.INT))
                .column("module_id", ColumnType.STRING).column("backend", ColumnType.STRING)
                .column("values", ColumnType.INT).column("in_memory", ColumnType.BOOL).column("files", ColumnType.LIST)
                .column("argument_bytes", ColumnType.BYTES).column("output_bytes", ColumnType.BYTES)
                .column("alias_bytes", ColumnType.BYTES).column("temp_bytes", ColumnType.BYTES)
                .column("code_bytes", ColumnType.BYTES).column("needs_bytes", ColumnType.BYTES)
                .column("weights_bytes", ColumnType.BYTES).column("optimizer_bytes", ColumnType.BYTES)
                .column("partitions", ColumnType.INT).column("replicas", ColumnType.INT);
        List<ModuleSet.Entry> es = ctx.modules().set().entries();
        int unread = 0;
        boolean spaces = false;
        for (ModuleSet.Entry e : es) spaces |= e.loaded() != null && MemorySpace.several(e.loaded());
        if (spaces) b.column("other_spaces", ColumnType.STRING);
        List<String> notes = new ArrayList<>();
        boolean noCode = false;
        List<String> blind = new ArrayList<>();
        for (int i = 0; i < es.size(); i++) {
            ModuleSet.Entry e = es.get(i);
            HloModule m = e.loaded();
            ProgramSizes z = m == null ? ProgramSizes.UNKNOWN : ProgramSizes.of(m);
            // A module in memory has its op_names read for the categories, so the row is the same
            // whatever ran before; one not read yet shows no figures (a note says why).
            if (m != null && m.info().hasValueDetails()) ctx.modules().readUsedValues(m);
            // without the Used values part (op_names, uses) the categories cannot tell a weight from an input
            boolean named = m != null && m.info().hasValueDetails();
            if (m != null && !named) blind.add(e.handle());
            if (m == null) unread++;
            noCode |= m != null && z.codeBytes() < 0;
            Map<String, Long> arguments = named ? arguments(ctx, m) : Map.of();
            List<Object> row = new ArrayList<>(List.of((long) (i + 1)));
            row.addAll(new ModuleSummary(e.handle(), e.name(), e == ctx.modules().set().currentEntry()).cells());
            row.addAll(Arrays.asList(e.dumpId(),
                    m == null ? null : m.info().backend(), m == null ? null : (long) m.values().size(), m != null,
                    List.copyOf(e.files()), orNull(z.argumentBytes()), orNull(z.outputBytes()), orNull(z.aliasBytes()),
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
        ctx.out().print(b.build());
        return Status.OK;
    }

    /** The entry parameters' bytes by category; a failing rule is a one-line error. */
    private static Map<String, Long> arguments(CommandContext ctx, HloModule m) throws CommandException {
        try {
            return Categories.of(m, ctx.engine().catalog().categories()).parameterBytes(m);
        } catch (CategoryRules.RuleFailure | PartReadException.Unchecked e) {
            throw new CommandException(m.handle() + ": " + e.getMessage());
        }
    }

    private static Long orNull(long x) { return x < 0 ? null : x; }
}
