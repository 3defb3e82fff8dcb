package bufq.table;

import java.util.List;

/**
 * What names a module wherever a table lists modules: {@code summary}, the {@code modules} command
 * and the {@code modules} entity lead with its columns, so the three agree in names, types and
 * rendering, and an export's key columns of the same names ({@code handle}, {@code program}) hold
 * the same values. It needs no module in memory: a session knows every handle before reading.
 *
 * @param handle  the module's name in the session, unique there ({@code jit__x#0010}); what {@code use} takes
 * @param program the plain program name, which several modules may share
 * @param current whether it is the session's current module
 */
public record ModuleSummary(String handle, String program, boolean current) {
    /** Adds the three columns to {@code b}. */
    public static Table.Builder columns(Table.Builder b) {
        return b.column("handle", ColumnType.STRING).column("program", ColumnType.STRING).column("current", ColumnType.BOOL);
    }

    /** The three cells, in the order of {@link #columns}. */
    public List<Object> cells() {
        return List.of(handle, program, current);
    }
}
