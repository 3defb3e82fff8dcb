package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.testing.TestModules;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Query#select}: the model rows a query keeps, in its order and limit, equal to what {@code run} shows. */
class SelectTest {
    private static final HloModule TOY = TestModules.toy();
    private static final EvalContext CTX = new EvalContext(TOY, TilingModel.TPU);

    private static List<Long> selectedIds(String q) throws QueryException {
        return Query.compile(q, Catalog.standard()).select(CTX).stream().map(o -> ((HloValue) o).id()).toList();
    }

    private static List<Long> shownIds(String q) throws QueryException {
        return Query.compile(q + " show id", Catalog.standard()).run(CTX).rows().stream().map(r -> (Long) r.get(0)).toList();
    }

    @Test
    void selectsWhatRunShows() throws QueryException {
        for (String q : List.of("values", "values where color = 1", "values where live at peak order by size desc limit 2",
                "values order by end desc, id limit 3", "values where live during 1..3 and size > 100")) {
            assertEquals(shownIds(q), selectedIds(q), q);
        }
        assertEquals(List.of(4L, 0L), selectedIds("values where live at peak order by size desc limit 2"));
    }

    @Test
    void refusesAggregates() {
        QueryException e = assertThrows(QueryException.class,
                () -> Query.compile("values show count()", Catalog.standard()).select(CTX));
        assertEquals("a selection cannot group or aggregate: drop 'group by' and aggregates", e.getMessage());
    }
}
