package bufq.shell.sql;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ctrl-C (an interrupt of the thread running a statement) stops a DuckDB query that would run for minutes. */
class CancelTest {
    @Test
    void anInterruptCancelsTheStatement() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            Thread t = new Thread(() -> {
                Thread.currentThread().interrupt();   // Ctrl-C came as the statement started
                try (Statement st = c.createStatement(); Cancel w = Cancel.watch(st)) {
                    st.execute("select count(*) from range(1000000000000) a where a.range % 7 = 3");
                } catch (SQLException | RuntimeException e) {
                    failure.set(e);
                }
            });
            t.start();
            t.join(120_000);
            assertFalse(t.isAlive(), "the statement was cancelled");
        }
        assertNotNull(failure.get(), "a cancelled statement fails");
        assertTrue(failure.get().getMessage().toLowerCase().contains("interrupt"), failure.get().getMessage());
    }
}
