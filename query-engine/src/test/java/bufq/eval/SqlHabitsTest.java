package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.lang.QueryException;
import bufq.table.Table;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Habits people bring from SQL shells and regex tools: a trailing
 * {@code ;}, single quotes, upper-case keywords and entities, comments, unquoted text with
 * parentheses, regex escapes after {@code ~}, and a pattern whose metacharacters hide its text.
 */
class SqlHabitsTest {
    private static String rows(String q) throws QueryException {
        return QueryTest.rows(QueryTest.run(q));
    }

    private static String error(String q) {
        QueryException e = assertThrows(QueryException.class, () -> QueryTest.run(q));
        return e.diagnostic().render(q);
    }

    @Test
    void trailingSemicolonEndsTheQuery() throws QueryException {
        assertEquals(rows("values order by id limit 2 show id"), rows("values order by id limit 2 show id;"));
        assertEquals(rows("values show id"), rows("values show id ;"));
        assertEquals("values limit 1; values\n"
                + "                ^^^^^^\n"
                + "expected nothing after ';' (one query at a time) but found 'values'", error("values limit 1; values"));
    }

    @Test
    void singleQuotesAreStrings() throws QueryException {
        assertEquals(rows("values where name = \"fusion.1\" show id"), rows("values where name = 'fusion.1' show id"));
        assertEquals("2", rows("values where op_name ~ 'soft' show id"));
        assertEquals("2", rows("values where live at 'fusion.1' and name = 'fusion.1' show id"));
        assertEquals("values where name = 'fusion\n"
                + "                    ^^^^^^^\n"
                + "unterminated string; expected a closing '''", error("values where name = 'fusion"));
    }

    @Test
    void entityAndKeywordsInAnyCase() throws QueryException {
        assertEquals(rows("values where color = 1 order by id show id"), rows("VALUES WHERE color = 1 ORDER BY id SHOW id"));
        assertEquals("values", Query.compile("Values limit 1", Catalog.standard()).entity());
    }

    @Test
    void commentsRunToTheEndOfTheLine() throws QueryException {
        assertEquals(rows("values where color = 1 show id"), rows("values where color = 1 -- only the second colour\nshow id"));
        assertEquals(rows("values where color = 1 show id"), rows("values where color = 1 # the second colour\nshow id"));
    }

    @Test
    void unquotedTextWithParenthesesAsksForQuotes() {
        assertEquals("values where op_name = jit(step)/jvp()/div and color = 1\n"
                + "                       ^^^^^^^^^^^^^^^^^^^\n"
                + "unquoted text 'jit(step)/jvp()/div'; to compare with a string, quote it: \"jit(step)/jvp()/div\"",
                error("values where op_name = jit(step)/jvp()/div and color = 1"));
        assertTrue(error("values where op_name in (jit(f)/copy, \"x\")")
                .endsWith("unquoted text 'jit(f)/copy'; to compare with a string, quote it: \"jit(f)/copy\""));
        assertTrue(error("values where opcode = a/b").endsWith("quote it: \"a/b\""));
        // a function on the left of a condition is still told where functions go
        assertTrue(error("values where count() > 1").endsWith("is only allowed in show and order by, not in conditions"));
    }

    @Test
    void regexEscapesAfterTildeReachTheRegex() throws QueryException {
        assertEquals("2", rows("values where op_name ~ \"^jit\\(f\\)/soft\" show id"));
        assertEquals("2", rows("values where op_name ~ 'jit\\(f\\)/s.ftmax$' show id"));
        // the doubled backslash of before still works
        assertEquals("2", rows("values where op_name ~ \"^jit\\\\(f\\\\)/soft\" show id"));
        // outside a pattern a regex escape is still an error, now saying where it belongs
        assertTrue(error("values where op_name = \"jit\\(f\\)\"")
                .endsWith("bad escape in string; expected one of \\\" \\' \\\\ \\n \\t \\r \\/ \\uXXXX"
                        + " (other escapes such as \\( are for regular expressions after ~)"));
    }

    @Test
    void patternWhoseMetacharactersHideItsTextSaysSo() throws QueryException {
        Table t = QueryTest.run("values where op_name ~ \"jit(f)/copy\"");
        assertEquals(0, t.size());
        assertEquals(List.of("the regular expression \"jit(f)/copy\" matches no op_name, but its text read literally is in 1;"
                + " escape its metacharacters with a backslash (\\( \\) \\. \\[) to match them as written"), t.notes());
        // a pattern that matches something, or whose text is nowhere, or a negated one: no note
        assertEquals(List.of(), QueryTest.run("values where op_name ~ \"jit.f./copy\" and color = 5").notes());
        assertEquals(List.of(), QueryTest.run("values where op_name ~ \"nowhere(x)\"").notes());
        assertEquals(List.of(), QueryTest.run("values where op_name ~ \"c.py\" and color = 7").notes());
    }

    @Test
    void anAggregateOverAPatternThatMatchesNothingSaysSoToo() throws QueryException {
        // count() always gives a row (0), so "no rows" cannot be the trigger
        Table t = QueryTest.run("values where op_name ~ \"jit(f)/copy\" show count()");
        assertEquals(1, t.size());
        assertEquals(0L, t.cell(0, 0));
        assertEquals(1, t.notes().size(), t.notes().toString());
        assertTrue(t.notes().get(0).startsWith("the regular expression \"jit(f)/copy\" matches no op_name"), t.notes().toString());
        assertEquals(List.of(), QueryTest.run("values where op_name ~ \"jit.f./copy\" show count()").notes());
    }
}
