package bufq.shell.command;

import bufq.api.Summary;
import bufq.model.HloModule;
import bufq.shell.api.ArgGrammar;
import bufq.shell.api.Command;
import bufq.shell.api.ParsedArgs;
import bufq.shell.session.CommandException;
import bufq.shell.api.CommandPlan;
import bufq.shell.session.ModuleSet;
import bufq.shell.api.CommandContext;
import bufq.shell.session.Status;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

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
        List<Summary.Listed> listed = new ArrayList<>();
        for (ModuleSet.Entry e : ctx.modules().set().entries()) {
            HloModule m = e.loaded();
            // A module in memory has its op_names read for the categories, so the row is the same
            // whatever ran before.
            if (m != null && m.info().hasValueDetails()) ctx.modules().readUsedValues(m);
            listed.add(new Summary.Listed(e.handle(), e.name(), e == ctx.modules().set().currentEntry(), e.dumpId(), m, e.files()));
        }
        try {
            ctx.out().print(Summary.modules(listed, ctx.engine().catalog()));
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        return Status.OK;
    }
}
