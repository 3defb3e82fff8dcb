package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.lang.assist.Completion;
import bufq.lang.assist.Highlight;
import bufq.lang.Diagnostic;
import bufq.lang.Parser;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.testing.TestModules;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Any input string compiles or fails with a QueryException whose span lies inside the query. */
class RobustnessTest {
    private static final String[] WORDS = {
        "values", "allocations", "instructions", "steps", "where", "group", "by", "show", "order", "limit", "and", "or",
        "not", "in", "is", "null", "live", "at", "during", "peak", "as", "asc", "desc", "true", "false", "(", ")", ",",
        "..", "=", "!=", "<", "<=", ">", ">=", "~", "!~", "color", "size", "name", "temp", "id", "count()", "sum(size)",
        "max(", "avg(name)", "4KiB", "1.5", "-3", "99999999999999999999999", "\"fusion\"", "\"(\"", "\"[a-\"", "\"unterminated",
        "fusion.1", "p0", "#", "\u00e9", "\n", "0", "13", "live_bytes", "label", "uses", "dims", "kind", "op_name", "1.3B",
    };

    @Test
    void randomTokenSoupNeverThrowsAnythingElse() {
        Random r = new Random(42);
        HloModule toy = TestModules.toy();
        int compiled = 0;
        for (int i = 0; i < 12_000; i++) {
            StringBuilder b = new StringBuilder(i % 3 == 0 ? "values " : "");
            int n = 1 + r.nextInt(12);
            for (int j = 0; j < n; j++) b.append(WORDS[r.nextInt(WORDS.length)]).append(r.nextInt(4) == 0 ? "" : " ");
            String q = b.toString();
            try {
                Query query = Query.compile(q, Catalog.standard());
                compiled++;
                query.run(new EvalContext(toy));
            } catch (QueryException e) {
                Diagnostic d = e.diagnostic();
                assertTrue(d.start() >= 0 && d.start() <= q.length() && d.end() <= q.length(), q + " -> " + d);
                char first = d.message().charAt(0);
                assertTrue(Character.isLowerCase(first) || first == '\'', q + " -> " + d.message());
                assertTrue(!d.message().startsWith("internal error"), q + " -> " + d.message());
                d.render(q);
            }
        }
        assertTrue(compiled > 20, "the soup should also produce valid queries, got " + compiled);
    }

    @Test
    void nullAndHugeInputs() {
        assertThrowsQuery(null);
        assertThrowsQuery("values where " + "(".repeat(100_000));
        assertThrowsQuery("values where name ~ \"" + "(".repeat(10_000) + "\"");
        assertThrowsQuery("\"" + "\\".repeat(100_001));
    }

    private static void assertThrowsQuery(String q) {
        try {
            Query.compile(q, Catalog.standard());
        } catch (QueryException e) {
            return;
        }
        throw new AssertionError("expected a QueryException for " + (q == null ? null : q.substring(0, Math.min(40, q.length()))));
    }

    @Test
    void renderPointsIntoTheRightLineOfAMultiLineQuery() {
        String q = "values\nwhere colr = 1\nlimit 3";
        QueryException e = assertThrows(QueryException.class, () -> Query.compile(q, Catalog.standard()));
        assertEquals("where colr = 1\n      ^^^^\nunknown field 'colr' for values; did you mean 'color'?", e.diagnostic().render(q));
    }

    @Test
    void randomCharactersThroughEveryEntryPoint() {
        Random r = new Random(11);
        String alphabet = "values where live at during peak show count( sum( ) , . .. = != < > ~ ! \" \\ 4KiB 1.5 - % # \n\u00e9\ud83d";
        int compiled = 0, refused = 0;
        for (int i = 0; i < 8_000; i++) {
            StringBuilder b = new StringBuilder();
            int n = r.nextInt(40);
            for (int j = 0; j < n; j++) b.append(alphabet.charAt(r.nextInt(alphabet.length())));
            String q = b.toString();
            Diagnostic error = null;
            try {
                Query.compile(q, Catalog.standard());
                compiled++;
            } catch (QueryException e) {
                error = e.diagnostic();
                refused++;
                assertTrue(0 <= error.start() && error.start() <= error.end() && error.end() <= q.length(), "span in the text: " + q);
                assertFalse(error.message().isBlank(), q);
                assertTrue(error.render(q).contains("^"), "the caret is drawn: " + q);
            }
            int cursor = r.nextInt(q.length() + 1);
            Completion.Context ctx = Completion.at(q, cursor, Catalog.standard());
            assertTrue(0 <= ctx.replaceStart() && ctx.replaceStart() <= cursor, "completion replaces before the cursor: " + q);
            Highlight.Result h = Highlight.of(q, Catalog.standard());
            int last = 0;
            for (Highlight.Span sp : h.spans()) {
                assertTrue(last <= sp.start() && sp.start() <= sp.end() && sp.end() <= q.length(), "spans in order, in the text: " + q);
                last = sp.end();
            }
            // The highlighter marks exactly what the compiler refuses (a blank line is not marked), and
            // says when it is only unfinished.
            Diagnostic marked = q.isBlank() ? null : error;
            assertEquals(marked, h.error(), q);
            assertEquals(marked != null && Parser.needsMore(q), h.incomplete(), q);
        }
        assertEquals(8_000, compiled + refused, "every case judged");
        assertTrue(refused > 0, "random text is mostly refused, each time with a drawn diagnostic");
    }

    @Test
    void unfinishedQueryWithTrailingNewlinePointsAfterTheLastWord() {
        String q = "values\nwhere color = 1 and\n\n";
        QueryException e = assertThrows(QueryException.class, () -> Query.compile(q, Catalog.standard()));
        assertEquals("where color = 1 and\n                   ^\nexpected a condition (a field, 'live', 'not' or '(') but found end of query",
                e.diagnostic().render(q));
        assertTrue(Parser.needsMore(q));
    }
}
