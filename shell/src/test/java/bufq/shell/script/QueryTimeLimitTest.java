package bufq.shell.script;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** A query that would run without bound (a regex that backtracks for ever) stops at 'set timeout'. */
class QueryTimeLimitTest {
    final Harness h = new Harness().load(Harness.root().resolve("examples/jax-mlp"));

    @AfterEach
    void close() throws Exception { h.close(); }

    @Test
    void catastrophicBacktrackingStopsAtTheLimitAndTheSessionGoesOn() {
        // Sixty 'a's: the pattern tries every way to pick 25 of them before failing.
        h.ok("js bufq.field('values', 'aaa', v => 'a'.repeat(60), {type: 'string'})");
        h.ok("set timeout 1");
        String e = h.fails("values where aaa ~ \"(.*a){25}x\"");
        assertTrue(e.contains("error: query stopped after the 1 s time limit (change it with 'set timeout N', 0 = none)"), e);
        assertFalse(Thread.currentThread().isInterrupted(), "the alarm's interrupt is cleared");
        assertTrue(h.ok("values show count()").contains("26"), "the next query runs");
    }

    @Test
    void aQueryWithinTheLimitIsNotDisturbed() {
        h.ok("set timeout 1");
        for (int i = 0; i < 20; i++) assertTrue(h.ok("values where name ~ \"w1\" show count()").contains("1"));
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
