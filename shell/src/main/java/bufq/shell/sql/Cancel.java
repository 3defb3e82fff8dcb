package bufq.shell.sql;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * Ctrl-C for a running statement: the shell interrupts the thread that runs it, which DuckDB's
 * native code does not see; this watcher does, and cancels the statement (again, until it ends, in
 * case the first cancel came before DuckDB started it).
 */
final class Cancel implements AutoCloseable {
    /** How often the watcher looks at the running thread. */
    private static final long POLL_MS = 50;

    private final Thread watcher;
    private volatile boolean done;

    private Cancel(Statement st, Thread runner) {
        watcher = new Thread(() -> {
            while (!done) {
                if (runner.isInterrupted()) {
                    try {
                        st.cancel();
                    } catch (SQLException e) {
                        return;   // closed meanwhile: nothing left to cancel
                    }
                }
                try {
                    Thread.sleep(POLL_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "bufq-sql-cancel");
        watcher.setDaemon(true);
    }

    /** Watches the calling thread while {@code st} runs; close it when the statement is done. */
    static Cancel watch(Statement st) {
        Cancel c = new Cancel(st, Thread.currentThread());
        c.watcher.start();
        return c;
    }

    @Override public void close() {
        done = true;
        watcher.interrupt();
    }
}
