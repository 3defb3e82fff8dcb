package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.lang.QueryException;
import bufq.model.Module;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A 50,000-value module answers typical queries in milliseconds. The bound is loose (shared CI
 * cores); the point is catching an accidental full scan or per-row regex compilation.
 */
class SpeedTest {
    @Test
    void typicalQueriesOnALargeModule() throws QueryException {
        Module m = TestModules.random(3, 50_000, 5_000);
        EvalContext ctx = new EvalContext(m);
        String[] queries = {
            "values where live at peak order by size desc limit 10",
            "values where color = 1 and live at 2500",
            "values where live at peak show sum(logical_size)",
            "values where name ~ \"op.1\" and size >= 4KiB show id, name, size",
        };
        for (String q : queries) {
            Query query = Query.compile(q, Catalog.standard());
            long[] ns = new long[21];
            for (int i = 0; i < ns.length; i++) {
                long t0 = System.nanoTime();
                query.run(ctx);
                ns[i] = System.nanoTime() - t0;
            }
            Arrays.sort(ns);
            double ms = ns[ns.length / 2] / 1e6;
            System.out.printf("%-70s median %.2f ms%n", q, ms);
            assertTrue(ms < 250, q + " took " + ms + " ms");
        }
    }
}
