package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.lang.Diagnostic;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.testing.TestModules;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Selection}, the one way commands turn text into rows: a condition alone selects as {@code
 * ENTITY where COND} does, and its errors point into the condition where the caller's statement has it.
 */
class SelectionTest {
    private static final HloModule TOY = TestModules.toy();
    private static final EvalContext CTX = new EvalContext(TOY, TilingModel.TPU);

    private static List<Long> ids(List<Object> rows) { return rows.stream().map(o -> ((HloValue) o).id()).toList(); }

    @Test
    void aConditionSelectsWhatTheWholeQuerySelects() throws QueryException {
        String cond = "live at peak order by size desc limit 2";
        Selection where = Selection.where("values", cond, 0, Catalog.standard());
        Selection whole = Selection.of(Query.compile("values where " + cond, Catalog.standard()));
        assertEquals(ids(whole.rows(CTX)), ids(where.rows(CTX)));
        assertEquals(List.of(4L, 0L), ids(where.rows(CTX)));
        assertEquals(Query.compile("values where " + cond, Catalog.standard()).readsUsedValues(), where.readsUsedValues());
    }

    /** "drop where colr = 1": the condition starts at column 11 of the statement, and so does the caret's field. */
    @Test
    void errorsPointIntoTheConditionAsWritten() {
        String statement = "drop where colr = 1";
        Selection s = Selection.where("values", "colr = 1", 11, Catalog.standard());
        assertTrue(s.unresolved(), "a script may define colr");
        assertFalse(s.readsUsedValues(), "it does not compile: it reads nothing");
        Diagnostic d = assertThrows(QueryException.class, () -> s.rows(CTX)).diagnostic();
        assertEquals("colr", statement.substring(d.start(), d.end()));
        assertTrue(d.message().startsWith("unknown field 'colr'"), d.message());
    }

    @Test
    void aSyntaxErrorIsNoUnresolvedName() {
        Selection s = Selection.where("values", "size >", 0, Catalog.standard());
        assertFalse(s.unresolved());
        assertThrows(QueryException.class, () -> s.rows(CTX));
        assertFalse(Selection.where("values", "size > 1", 0, Catalog.standard()).unresolved());
    }

    /** A condition naming a field a script defines later selects once checked against the catalog that has it. */
    @Test
    void aSelectionChecksAgainAgainstACatalogThatChanged() throws QueryException {
        Selection s = Selection.where("values", "big = 1", 0, Catalog.standard());
        assertTrue(s.unresolved());
        assertEquals(s, s.against(Catalog.standard()), "the same catalog: nothing to check again");
        Catalog withBig = Catalog.standard().withField("values", "big", bufq.table.ColumnType.INT, "",
                v -> ((HloValue) v).size() >= 1000 ? 1 : 0);
        Selection now = s.against(withBig);
        assertFalse(now.unresolved());
        List<Long> big = ids(Selection.where("values", "size >= 1000", 0, Catalog.standard()).rows(CTX));
        assertFalse(big.isEmpty() || big.size() == TOY.values().size(), "the toy has values on both sides: " + big);
        assertEquals(big, ids(now.rows(CTX)));
    }
}
