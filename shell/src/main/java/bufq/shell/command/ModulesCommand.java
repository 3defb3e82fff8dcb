package bufq.shell.command;

import bufq.model.HloModule;
import bufq.shell.session.Command;
import bufq.shell.session.CommandException;
import bufq.shell.session.CommandPlan;
import bufq.shell.session.ModuleSet;
import bufq.shell.session.CommandContext;
import bufq.shell.session.Status;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.io.IOException;
import java.util.List;

final class ModulesCommand implements Command {
    @Override public String name() { return "modules"; }
    @Override public String synopsis() { return "modules"; }

    @Override public String brief() { return "Lists the loaded modules; the current one is marked *."; }

    @Override public String description() {
        return "Lists the loaded modules with the handle and number 'use' accepts; the current one is marked *.\n"
                + "Modules of a big directory are read when first used: backend and values show once they are.";
    }

    @Override public List<String> examples() { return List.of("modules"); }

    @Override public CommandPlan plan(CommandContext ctx, String args) throws CommandException {
        return CommandPlan.words(args, this::run);
    }

    private Status run(CommandContext ctx, List<String> args) throws CommandException, IOException {
        arity(args, 0, 0);
        Table.Builder b = Table.builder().column("#", ColumnType.INT).column("current", ColumnType.STRING)
                .column("module", ColumnType.STRING).column("name", ColumnType.STRING).column("backend", ColumnType.STRING)
                .column("values", ColumnType.INT).column("in_memory", ColumnType.BOOL).column("files", ColumnType.LIST);
        List<ModuleSet.Entry> es = ctx.modules().set().entries();
        for (int i = 0; i < es.size(); i++) {
            ModuleSet.Entry e = es.get(i);
            HloModule m = e.loaded();
            b.row((long) (i + 1), e == ctx.modules().set().currentEntry() ? "*" : "", e.handle(), e.name(),
                    m == null ? null : m.info().backend(), m == null ? null : (long) m.values().size(), m != null,
                    List.copyOf(e.files()));
        }
        ctx.out().print(b.build());
        return Status.OK;
    }
}
