package bufq.shell.command;

import bufq.model.Module;
import bufq.shell.CommandException;
import bufq.shell.Shell;
import bufq.shell.Status;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.io.IOException;
import java.util.List;

final class ModulesCommand implements Command {
    @Override public String name() { return "modules"; }
    @Override public String synopsis() { return "modules"; }

    @Override public String brief() { return "Lists the loaded modules; the current one is marked *."; }

    @Override public String description() {
        return "Lists the loaded modules with the handle and number 'use' accepts; the current one is marked *.";
    }

    @Override public List<String> examples() { return List.of("modules"); }

    @Override public Status run(Shell shell, List<String> args) throws CommandException, IOException {
        arity(args, 0, 0);
        Table.Builder b = Table.builder().column("#", ColumnType.INT).column("current", ColumnType.STRING)
                .column("module", ColumnType.STRING).column("name", ColumnType.STRING).column("backend", ColumnType.STRING)
                .column("values", ColumnType.INT).column("files", ColumnType.LIST);
        List<Module> ms = shell.modules();
        for (int i = 0; i < ms.size(); i++) {
            Module m = ms.get(i);
            b.row((long) (i + 1), m == shell.current() ? "*" : "", m.handle(), m.info().name(), m.info().backend(),
                    (long) m.values().size(), List.copyOf(m.info().files()));
        }
        shell.print(b.build());
        return Status.OK;
    }
}
