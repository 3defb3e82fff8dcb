package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.table.ColumnType;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

/**
 * A float field that is NaN (a script's {@code v.idle_step / n} with a typo) compared true
 * with {@code > 0.5} for every row. NaN now behaves as null does, as in SQL: every comparison with
 * it is false, {@code is null} holds, it sorts last either way and aggregates skip it.
 */
class NanIsMissingTest {
    private static final HloModule TOY = TestModules.toy();

    /** {@code odd}: NaN on values with an odd id, the id itself (as a float) on the others. */
    private static final Catalog CATALOG = Catalog.standard().withField("values", "odd", ColumnType.FLOAT, "",
            row -> ((HloValue) row).id() % 2 == 1 ? Double.NaN : (double) ((HloValue) row).id());

    private static String run(String q) throws QueryException {
        return QueryTest.rows(Query.compile(q, CATALOG).run(new EvalContext(TOY)));
    }

    private static long count(String where) throws QueryException {
        return Long.parseLong(run("values where " + where + " show count()"));
    }

    @Test
    void everyComparisonWithNanIsFalse() throws QueryException {
        long all = count("id >= 0"), odd = count("id in (1, 3, 5, 7, 9, 11, 13, 15)"), even = all - odd;
        assertEquals(true, odd > 0 && even > 0, "the toy module has odd and even ids");
        assertEquals(even, count("odd >= 0"));
        assertEquals(0, count("odd < 0"));
        assertEquals(even, count("odd > -1"));
        assertEquals(even, count("odd <= 1000"));
        assertEquals(even, count("odd != -1"), "!= is false on NaN too, as on null");
        assertEquals(0, count("odd = -1"));
        assertEquals(0, count("odd in (1.0, 3.0)"));
        assertEquals(0, count("odd not in (1.0, 3.0)") - count("odd >= 0 and odd not in (1.0, 3.0)"));
        assertEquals(odd, count("odd is null"));
        assertEquals(even, count("odd is not null"));
    }

    @Test
    void nanSortsLastAndAggregatesSkipIt() throws QueryException {
        String asc = run("values order by odd show odd"), desc = run("values order by odd desc show odd");
        assertEquals(true, asc.endsWith("NaN") && desc.endsWith("NaN"), asc + "\n--\n" + desc);
        assertEquals(false, asc.startsWith("NaN") || desc.startsWith("NaN"), asc + "\n--\n" + desc);
        String max = run("values show max(odd)"), min = run("values show min(odd)");
        assertEquals(false, max.equals("NaN") || max.equals("null"), max);
        assertEquals("0.0", min);
        String avg = run("values show avg(odd)"), sum = run("values show sum(odd)");
        assertEquals(false, avg.contains("NaN") || sum.contains("NaN"), avg + " " + sum);
    }
}
