package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.testing.TestModules;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The REPL cancels a running query by interrupting its thread; the evaluator must notice. */
class CancelTest {
    private static final HloModule BIG = TestModules.random(7, 5000, 200);

    @AfterEach
    void clearFlag() { Thread.interrupted(); }

    @Test
    void interruptedThreadStopsTheQueryWithAMessage() throws QueryException {
        Query q = Query.compile("values where size > 0 order by size desc", Catalog.standard());
        Thread.currentThread().interrupt();
        QueryException e = assertThrows(QueryException.class, () -> q.run(new EvalContext(BIG, TilingModel.TPU)));
        assertEquals("query cancelled", e.getMessage());
        assertTrue(Thread.currentThread().isInterrupted(), "the flag stays set so the caller knows why");
    }

    @Test
    void groupedQueriesAreCancellableToo() throws QueryException {
        Query q = Query.compile("values group by color show color, count()", Catalog.standard());
        Thread.currentThread().interrupt();
        assertThrows(QueryException.class, () -> q.run(new EvalContext(BIG, TilingModel.TPU)));
    }

    @Test
    void withoutInterruptTheSameQueryRuns() throws QueryException {
        Query q = Query.compile("values where size > 0 order by size desc", Catalog.standard());
        assertTrue(q.run(new EvalContext(BIG, TilingModel.TPU)).rows().size() > 0);
    }
}
