package bufq.shell.sql;

import bufq.shell.cli.Bufq;
import bufq.shell.session.CommandException;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.Status;
import bufq.shell.run.Shell;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ctrl-C during a {@code sql} statement, as the REPL sends it (an interrupt of the thread running
 * the statement), through the shell and {@link Sql#query}: the statement stops with one line and
 * the session's next statement runs on the same tables.
 */
class SqlCtrlCTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();

    @Test
    void ctrlCStopsALongStatementAndTheSessionGoesOn() throws Exception {
        Shell shell = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        shell.modules().load(List.of(Path.of(SqlCommandTest.SEED)));
        try {
            assertEquals(Status.OK, shell.execute("set timeout 0"), err());   // only Ctrl-C stops it
            assertEquals(Status.OK, shell.execute("sql select count(*) as n from values"), err());   // the tables are loaded
            err.reset();
            AtomicReference<Status> status = new AtomicReference<>();
            // 10^12 rows: hours of work, so only the cancel ends it
            Thread runner = new Thread(() -> status.set(shell.execute(
                    "sql select count(*) from range(1000000) a cross join range(1000000) b where (a.range + b.range) % 7 = 3")));
            runner.start();
            awaitRunning();
            runner.interrupt();   // what the REPL's Ctrl-C handler does
            runner.join();
            assertEquals(Status.ERROR, status.get());
            assertEquals("error: " + CommandException.CANCELLED + "\n", err(), "one line, and DuckDB stopped");
            out.reset();
            assertEquals(Status.OK, shell.execute("sql select 41 + 1 as answer"), err());
            assertTrue(out().contains("42"), out());
        } finally {
            shell.close();
        }
    }

    /**
     * Returns once DuckDB runs the statement: its thread is in the driver's native execute and has
     * spent CPU time there (a cancel asked before DuckDB starts a statement is not seen by it).
     */
    private static void awaitRunning() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Thread sql = null;
        long cpu0 = -1;
        while (true) {
            if (sql == null) {
                for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                    if (e.getKey().getName().equals("bufq-sql") && inNativeExecute(e.getValue())) sql = e.getKey();
                }
                if (sql != null) cpu0 = mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(sql.getId()) : -1;
            } else if (cpu0 < 0 || mx.getThreadCpuTime(sql.getId()) - cpu0 > 50_000_000L) {
                return;
            }
            assertFalse(sql != null && !sql.isAlive(), "the statement ended by itself");
            Thread.yield();
        }
    }

    private static boolean inNativeExecute(StackTraceElement[] stack) {
        return stack.length > 0 && stack[0].getClassName().equals("org.duckdb.DuckDBNative") && stack[0].getMethodName().contains("execute");
    }

    private String out() { return out.toString(StandardCharsets.UTF_8); }
    private String err() { return err.toString(StandardCharsets.UTF_8); }
}
