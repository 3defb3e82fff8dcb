package bufq.model;

import bufq.table.ColumnType;
import bufq.table.Table;

import java.util.List;

/**
 * What names a module wherever a table lists modules: {@code summary}, the {@code modules} command
 * and the {@code modules} entity build their first columns from it, so the three agree in names,
 * types and rendering. It needs no module in memory: a session knows every handle before reading.
 *
 * @param module  the unique key ({@code jit__x#0010}) that {@code use} takes
 * @param program the plain program name, which several modules may share
 * @param current whether it is the session's current module
 */
public record ModuleSummary(String module, String program, boolean current) {
    /** The summary of a loaded module. */
    public static ModuleSummary of(HloModule m, boolean current) {
        return new ModuleSummary(m.handle(), m.info().name(), current);
    }

    /** Adds the three columns to {@code b}. */
    public static Table.Builder columns(Table.Builder b) {
        return b.column("module", ColumnType.STRING).column("program", ColumnType.STRING).column("current", ColumnType.BOOL);
    }

    /** The three cells, in the order of {@link #columns}. */
    public List<Object> cells() {
        return List.of(module, program, current);
    }
}
