package bufq.shell.script;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code advise} runs under {@code set timeout}: a rule whose change takes minutes to measure
 * (its whatif condition matches a regex over a long value) stops at the limit, and the session goes on.
 */
class AdviseTimeLimitTest {
    final Harness h = new Harness().load(Harness.root().resolve("examples/jax-mlp"));

    @AfterEach
    void close() throws Exception { h.close(); }

    /** Without the limit the match runs for minutes: the timeout only turns that hang into a failure. */
    @Test
    @Timeout(60)
    void adviseStopsAtTheLimitAndTheSessionGoesOn() {
        // The field hands out one string made once and the rule returns at once: only measuring the
        // edit runs long (minutes of matching per value), so the limit is what ends it.
        h.ok("js const xs = 'x'.repeat(400000); bufq.field('values', 'xs', v => xs, {type: 'string'})");
        h.ok("js bufq.rule('slow', m => [{finding: 'scale what matches', whatif: 'scale where xs ~ \"(x{0,300}){0,300}y\" by 0.5'}])");
        h.ok("set timeout 0.2");
        String e = h.fails("advise");
        assertTrue(e.contains("error: query stopped after the 0.2 s time limit (change it with 'set timeout N', 0 = none)"), e);
        assertFalse(Thread.currentThread().isInterrupted(), "the alarm's interrupt is cleared");
        h.ok("set timeout 10");
        assertTrue(h.ok("values show count()").contains("26"), "the next statement runs");
    }
}
