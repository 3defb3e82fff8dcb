package bufq.shell.sql;

import bufq.model.TilingModel;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.ModuleSet;
import bufq.shell.session.Modules;
import bufq.table.Table;

import bufq.shell.statement.QueryDeadline;

import java.nio.file.Path;
import java.time.Duration;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

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
    private List<Path> loadedAllowed;

    /** The most cells (rows times columns) of one result {@link #query} holds. */
    public static final long MAX_CELLS = ResultTable.MAX_CELLS;

    /**
     * Runs {@code sql} (DuckDB's dialect) over the tables of every module of {@code modules} and
     * returns its result; a statement that returns no rows gives an empty table of one column,
     * {@code ok}. Only queries run ({@link QueryOnly}), in the sandbox of {@link Stage#forQueries}: the
     * session's tables read only, no file read but under {@code allowed}; on a connection of its own.
     *
     * @throws Engine.Failure with DuckDB's error rendered under the statement, a caret at its spot
     */
    public SqlResult query(String sql, Modules modules, TilingModel tiling, List<Path> allowed, Duration timeout, String timeoutShown)
            throws CommandException, Engine.Failure {
        SqlText.checkNesting(sql);
        // The tables' load (Ctrl-C stops it) is not the statement's time: the limit starts after it.
        Stage s = stage(modules, tiling, allowed);
        try (QueryDeadline limit = QueryDeadline.start(timeout, timeoutShown)) {
            Connection c = null;
            Statement st = null;
            boolean abandoned = false;
            try {
                c = s.conn.duplicate();
                try (Statement path = c.createStatement()) {
                    path.execute("SET search_path = " + Schema.literal(s.searchPath()));
                }
                st = c.createStatement();
                Statement running = st;
                AtomicBoolean stop = new AtomicBoolean();
                // DuckDB runs on a thread of its own: a read that blocks in native code (a FIFO) cannot
                // hold the shell past Ctrl-C or the time limit.
                FutureTask<SqlResult> task = new FutureTask<>(() -> run(running, sql, stop));
                Thread worker = new Thread(null, task, "bufq-sql", NATIVE_STACK);
                worker.setDaemon(true);
                worker.start();
                if (!await(task, running, stop)) {
                    abandoned = true;
                    stage = null;   // left to the blocked read; its folder goes at exit
                    throw new CommandException((limit.expired() ? limit.message() : CommandException.CANCELLED)
                            + "; DuckDB did not stop (a read that blocks, such as a FIFO): the next sql starts a new session");
                }
                try {
                    return task.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof SQLException x) throw x;
                    if (e.getCause() instanceof Engine.Failure x) throw x;
                    if (e.getCause() instanceof RuntimeException x) throw x;
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    throw new IllegalStateException("the task was done", e);
                }
            } catch (SQLException e) {
                if (limit.expired()) throw new CommandException(limit.message());
                if (Thread.currentThread().isInterrupted()) throw new CommandException(CommandException.CANCELLED);
                throw new Engine.Failure(Failures.render(e, sql));
            } finally {
                if (!abandoned) {
                    closeQuietly(st);
                    closeQuietly(c);
                    checkIntact(s);
                }
            }
        }
    }

    /** Runs {@code sql} on {@code st}, when it only queries ({@link QueryOnly}), and reads its rows, until {@code stop}. */
    private static SqlResult run(Statement st, String sql, AtomicBoolean stop) throws SQLException, Engine.Failure {
        QueryOnly.check(st.getConnection(), sql);
        if (!st.execute(sql)) return new SqlResult(Table.builder().key("result").column("ok", bufq.table.ColumnType.BOOL).build(), false);
        try (ResultSet rs = st.getResultSet()) {
            return ResultTable.of(rs, ResultTable.MAX_CELLS, stop::get);
        }
    }

    /**
     * The stack of the thread DuckDB binds a statement on. Its JSON reader recurses once per level of
     * a file's nesting on it: 50,000 levels (a 100 KB file under an allowed folder) overflowed the
     * default and ended the process; this many bytes take about four times that. The stack is
     * reserved, not used, until a statement recurses.
     */
    private static final long NATIVE_STACK = 256L << 20;

    /** How long a cancelled statement may take to stop before it is left behind. */
    private static final long STOP_WAIT_MS = 2_000;

    /**
     * Waits for {@code task}; on an interrupt of the waiting thread (Ctrl-C, the time limit) cancels
     * the statement and waits {@link #STOP_WAIT_MS} more. False when it did not stop (the interrupt is kept).
     */
    private static boolean await(FutureTask<SqlResult> task, Statement st, AtomicBoolean stop) {
        while (!task.isDone()) {
            try {
                task.get(50, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // not done, or done with a failure get() gives again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (Thread.currentThread().isInterrupted()) break;
        }
        if (task.isDone()) return true;
        stop.set(true);
        // The driver's cancel waits for a lock the running statement may hold: asked from a thread of its own.
        Thread cancel = new Thread(() -> {
            try {
                st.cancel();
            } catch (SQLException e) {
                // closed meanwhile: done
            }
        }, "bufq-sql-cancel");
        cancel.setDaemon(true);
        cancel.start();
        Thread.interrupted();   // waits below; the flag is put back after
        try {
            task.get(STOP_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException | InterruptedException e) {
            // judged below
        } finally {
            Thread.currentThread().interrupt();
        }
        return task.isDone();
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (Exception e) {
            // a connection of one statement: nothing is lost
        }
    }

    /** A statement that detached the tables' database (or put another in its place) loses the stage: the next reads the tables again. */
    private void checkIntact(Stage s) throws CommandException {
        boolean ok;
        try {
            ok = s.intact();
        } catch (SQLException e) {
            ok = false;
        }
        if (!ok) {
            close();
            throw new CommandException("sql: the statement detached the session's tables; the next statement reads them again");
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
    private Stage stage(Modules modules, TilingModel tiling, List<Path> allowed) throws CommandException, Engine.Failure {
        List<ModuleSet.Entry> now = modules.set().entries();
        if (stage != null && tiling == loadedTiling && same(now, loadedFrom) && allowed.equals(loadedAllowed)) return stage;
        close();
        Stage fresh = Stage.forQueries();
        try {
            fresh.load(modules, tiling);
            fresh.seal(allowed);
        } catch (SQLException e) {
            fresh.close();
            throw new CommandException("cannot start DuckDB: " + Failures.message(e));
        } catch (CommandException | Engine.Failure | RuntimeException e) {
            fresh.close();
            throw e;
        }
        stage = fresh;
        loadedFrom = now;
        loadedTiling = tiling;
        loadedAllowed = allowed;
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
