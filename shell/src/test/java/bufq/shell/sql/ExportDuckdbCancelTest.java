package bufq.shell.sql;

import bufq.shell.cli.Bufq;
import bufq.shell.run.Shell;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ctrl-C during {@code export duckdb} (the REPL interrupts the statement's thread) stops it, and
 * the database gains none of its rows: an earlier export's run is all it holds, and the session goes on.
 */
class ExportDuckdbCancelTest {
    @TempDir Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();

    private Shell shell;

    @AfterEach
    void close() throws Exception {
        Thread.interrupted();
        Exports.beforeCommit = () -> {};
        if (shell != null) shell.close();
    }

    /** Ctrl-C as the export starts: it stops while the tables load, before the database is opened. */
    @Test
    void ctrlCAsTheExportStartsAddsNothing() throws Exception {
        Path db = dir.resolve("runs.duckdb");
        shell();
        assertEquals(Status.OK, shell.execute("export duckdb " + db), err());
        long values = count(db, "values");
        err.reset();
        assertEquals(Status.ERROR, interrupted(() -> shell.execute("export duckdb " + db)));
        assertTrue(err().startsWith("error: cancelled (Ctrl-C)") && err().indexOf('\n') == err().length() - 1, err());
        assertEquals("[[1]]", Run.client(db.toString(), "select run_id from runs").toString(), "no second run");
        assertEquals(values, count(db, "values"));
    }

    /** Ctrl-C at the last moment before the commit: every row is in the transaction, and none is kept. */
    @Test
    void ctrlCBeforeTheCommitAddsNothing() throws Exception {
        Path db = dir.resolve("runs.duckdb");
        shell();
        assertEquals(Status.OK, shell.execute("export duckdb " + db), err());
        long values = count(db, "values");
        assertTrue(values > 0, "the first export wrote rows");
        err.reset();
        Exports.beforeCommit = () -> Thread.currentThread().interrupt();   // Ctrl-C
        Status st;
        try {
            st = shell.execute("export duckdb " + db);
        } finally {
            Exports.beforeCommit = () -> {};
            Thread.interrupted();
        }
        assertEquals(Status.ERROR, st);
        assertEquals("error: cancelled (Ctrl-C); nothing was added to " + db + "\n", err());
        assertEquals("[[1]]", Run.client(db.toString(), "select run_id from runs").toString(), "no second run");
        assertEquals(values, count(db, "values"), "no row of the cancelled export");
        err.reset();
        assertEquals(Status.OK, shell.execute("export duckdb " + db), err());   // the session goes on
        assertEquals(2 * values, count(db, "values"));
    }

    private void shell() throws Exception {
        shell = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        shell.modules().load(List.of(Path.of(SqlCommandTest.SEED)));
    }

    private static Status interrupted(java.util.function.Supplier<Status> statement) {
        Thread.currentThread().interrupt();   // Ctrl-C
        try {
            return statement.get();
        } finally {
            Thread.interrupted();
        }
    }

    private String err() { return err.toString(StandardCharsets.UTF_8); }

    private static long count(Path db, String table) throws Exception {
        return ((Number) Run.client(db.toString(), "select count(*) from \"" + table + "\"").get(0).get(0)).longValue();
    }
}
