package bufq.shell.script;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** A query that would run without bound (a regex that backtracks for ever) stops at 'set timeout'. */
class QueryTimeLimitTest {
    final Harness h = new Harness().load(Harness.root().resolve("examples/jax-mlp"));

    @AfterEach
    void close() throws Exception { h.close(); }

    /** Minutes of matching per value: 90,000 pattern elements over 400,000 characters. */
    private static final String SLOW = "xs ~ \"(x{0,300}){0,300}y\"";

    /**
     * The limit is a fifth of a second (the query's alarm comes half a second after it): the match
     * runs until the limit, so a longer one costs only CPU. The field hands out one string made
     * once, so no call into it comes near the scripts' own limit, which is the same.
     */
    private void slowField() {
        h.ok("js const xs = 'x'.repeat(400000); bufq.field('values', 'xs', v => xs, {type: 'string'})");
        h.ok("set timeout 0.2");
    }

    private void stopsAtTheLimit(String statement) {
        long t0 = System.nanoTime();
        String e = h.fails(statement);
        assertTrue(e.contains("error: query stopped after the 0.2 s time limit (change it with 'set timeout N', 0 = none)"), e);
        assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "stopped near the limit");
        assertFalse(Thread.currentThread().isInterrupted(), "the alarm's interrupt is cleared");
        h.ok("set timeout 10"); // what runs next runs under a limit no busy machine reaches
        assertTrue(h.ok("values show count()").contains("26"), "the next query runs");
    }

    @Test
    void aLongMatchStopsAtTheLimitAndTheSessionGoesOn() {
        slowField();
        stopsAtTheLimit("values where " + SLOW);
    }

    /** Whatif's conditions, its trailing query and why's query ran without the limit. */
    @Test
    void whatifConditionsStopAtTheLimit() {
        slowField();
        stopsAtTheLimit("whatif drop where " + SLOW);
    }

    @Test
    void whatifsTrailingQueryStopsAtTheLimit() {
        slowField();
        stopsAtTheLimit("whatif drop where size < 0; values where " + SLOW);
    }

    @Test
    void whysQueryStopsAtTheLimit() {
        slowField();
        stopsAtTheLimit("why values where " + SLOW);
    }

    @Test
    void aQueryWithinTheLimitIsNotDisturbed() {
        h.ok("set timeout 1");
        for (int i = 0; i < 20; i++) assertTrue(h.ok("values where name ~ \"w1\" show count()").contains("1"));
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
