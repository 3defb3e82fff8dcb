package bufq.shell.sql;

import bufq.model.TilingModel;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.ModuleSet;
import bufq.shell.session.Modules;
import bufq.table.Table;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * SQL over the loaded modules' tables, on DuckDB embedded in this process: {@link
 * #query} for the {@code sql} command, and the two exports, {@link #exportParquet} and {@link
 * #exportDuckdb}. DuckDB's classes load with this class's first use only, so a run that asks no SQL
 * pays nothing for them.
 *
 * <p>The tables are the standard catalog's entities (see {@link Schema}); a session keeps them
 * between statements until its modules or its tiling model change.
 */
public final class Sql implements AutoCloseable {
    private Stage stage;
    private List<ModuleSet.Entry> loadedFrom;
    private TilingModel loadedTiling;

    /**
     * Runs {@code sql} (DuckDB's dialect) over the tables of every module of {@code modules} and
     * returns its result; a statement that returns no rows (a {@code CREATE VIEW}) gives an empty
     * table of one column, {@code ok}.
     *
     * @throws Engine.Failure with DuckDB's error rendered under the statement, a caret at its spot
     */
    public Table query(String sql, Modules modules, TilingModel tiling) throws CommandException, Engine.Failure {
        Stage s = stage(modules, tiling);
        try (Statement st = s.conn.createStatement(); Cancel watch = Cancel.watch(st)) {
            if (!st.execute(sql)) return Table.builder().column("ok", bufq.table.ColumnType.BOOL).build();
            try (ResultSet rs = st.getResultSet()) {
                return ResultTable.of(rs);
            }
        } catch (SQLException e) {
            if (Thread.currentThread().isInterrupted()) throw new CommandException("cancelled (Ctrl-C)");
            throw new Engine.Failure(Failures.render(e, sql));
        }
    }

    /**
     * Writes the tables of {@code modules} as Parquet, one file per table, under {@code dir} and the
     * Hive-style folders of {@code partitions} ({@code run=2026-12-01}); a table with no rows gets no
     * file ({@code events} of a text dump). Files already there are only replaced with {@code force};
     * every file is written to a temporary name first, so an export is whole or absent.
     *
     * @return what was written, in one line
     */
    public static String exportParquet(Modules modules, TilingModel tiling, java.nio.file.Path dir, List<String> entities,
                                       List<String> partitions, boolean force) throws CommandException, Engine.Failure {
        return Exports.parquet(modules, tiling, dir, entities, Exports.partitions(partitions), force);
    }

    /**
     * Appends the tables of {@code modules} to the DuckDB database {@code file}, made if missing: its
     * tables get a column a newer bufq added, and a row of {@code runs} records the export (its
     * {@code run_id} is in every row it added). One transaction: all of it, or nothing.
     *
     * @return what was written, in one line
     */
    public static String exportDuckdb(Modules modules, TilingModel tiling, java.nio.file.Path file, List<String> entities,
                                      List<String> partitions) throws CommandException, Engine.Failure {
        return Exports.duckdb(modules, tiling, file, entities, Exports.partitions(partitions));
    }

    /** The session's tables, read again when its modules or tiling model changed since the last query. */
    private Stage stage(Modules modules, TilingModel tiling) throws CommandException, Engine.Failure {
        List<ModuleSet.Entry> now = modules.set().entries();
        if (stage != null && tiling == loadedTiling && same(now, loadedFrom)) return stage;
        close();
        Stage fresh = Stage.start(Stage.tables(List.of()));
        try {
            fresh.load(modules, tiling);
        } catch (CommandException | Engine.Failure | RuntimeException e) {
            fresh.close();
            throw e;
        }
        stage = fresh;
        loadedFrom = now;
        loadedTiling = tiling;
        return stage;
    }

    private static boolean same(List<ModuleSet.Entry> a, List<ModuleSet.Entry> b) {
        if (b == null || a.size() != b.size()) return false;
        for (int i = 0; i < a.size(); i++) if (a.get(i) != b.get(i)) return false;
        return true;
    }

    @Override public void close() {
        if (stage != null) stage.close();
        stage = null;
        loadedFrom = null;
    }
}
