package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import bufq.lang.QueryException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every compile-time error, with the exact rendering a user sees: the query, the caret line, the message. */
class ErrorsTest {
    static Stream<Arguments> rendered() {
        return Stream.of(
                Arguments.of("values where name = fusion.1",
                        "values where name = fusion.1" + "\n"
                        + "                    ^^^^^^^^" + "\n"
                        + "unknown field 'fusion.1' for values; to compare with a string, quote it: \"fusion.1\""),
                Arguments.of("values where colr = 1",
                        "values where colr = 1" + "\n"
                        + "             ^^^^" + "\n"
                        + "unknown field 'colr' for values; did you mean 'color'?"),
                Arguments.of("valus",
                        "valus" + "\n"
                        + "^^^^^" + "\n"
                        + "unknown entity 'valus'; expected one of values, allocations, instructions, steps, uses, events, modules; did you mean 'values'?"),
                Arguments.of("",
                        "" + "\n"
                        + "^" + "\n"
                        + "expected an entity (values, allocations, instructions or steps) but found end of query"),
                Arguments.of("where x",
                        "where x" + "\n"
                        + "^^^^^" + "\n"
                        + "expected an entity (values, allocations, instructions or steps) but found 'where'"),
                Arguments.of("values where",
                        "values where" + "\n"
                        + "            ^" + "\n"
                        + "expected a condition (a field, 'live', 'not' or '(') but found end of query"),
                Arguments.of("values where color =",
                        "values where color =" + "\n"
                        + "                    ^" + "\n"
                        + "expected a value or a field after '=' but found end of query"),
                Arguments.of("values where size ~ \"x\"",
                        "values where size ~ \"x\"" + "\n"
                        + "             ^^^^^^" + "\n"
                        + "operator '~' needs a string on its left but found bytes field 'size'"),
                Arguments.of("values where name > 4KiB",
                        "values where name > 4KiB" + "\n"
                        + "                    ^^^^" + "\n"
                        + "expected a string to compare with string field 'name' but found number 4KiB"),
                Arguments.of("values show sum()",
                        "values show sum()" + "\n"
                        + "            ^^^^^" + "\n"
                        + "sum() takes one field, e.g. sum(size), but found none"),
                Arguments.of("values show count(x)",
                        "values show count(x)" + "\n"
                        + "            ^^^^^^^^" + "\n"
                        + "count() takes no arguments but found 1"),
                Arguments.of("values limit 1.5",
                        "values limit 1.5" + "\n"
                        + "             ^^^" + "\n"
                        + "expected a whole number of rows after 'limit' but found '1.5'"),
                Arguments.of("values limit x",
                        "values limit x" + "\n"
                        + "             ^" + "\n"
                        + "expected a whole number of rows after 'limit' but found 'x'"),
                Arguments.of("values where name ~ \"(\"",
                        "values where name ~ \"(\"" + "\n"
                        + "                     ^" + "\n"
                        + "bad regular expression: missing closing )"),
                Arguments.of("values where live",
                        "values where live" + "\n"
                        + "                 ^" + "\n"
                        + "expected 'at' or 'during' after 'live' but found end of query"),
                Arguments.of("values where live at",
                        "values where live at" + "\n"
                        + "                    ^" + "\n"
                        + "expected a step number, 'peak', 'claimed_peak' or an instruction name but found end of query"),
                Arguments.of("values where live during 3 5",
                        "values where live during 3 5" + "\n"
                        + "                           ^" + "\n"
                        + "expected '..' between the two times of 'live during' but found number 5"),
                Arguments.of("values where color = null",
                        "values where color = null" + "\n"
                        + "                     ^^^^" + "\n"
                        + "expected a value or a field after '=' but found 'null'; use 'is null' to test for a missing value"),
                Arguments.of("values where size",
                        "values where size" + "\n"
                        + "             ^^^^" + "\n"
                        + "expected a condition but found bytes field 'size'; compare it, e.g. size > 0"),
                Arguments.of("values show cnt()",
                        "values show cnt()" + "\n"
                        + "            ^^^" + "\n"
                        + "unknown function 'cnt'; expected one of count(), sum(), min(), max(), avg(); did you mean 'count'?"),
                Arguments.of("values show name, count()",
                        "values show name, count()" + "\n"
                        + "            ^^^^" + "\n"
                        + "field 'name' cannot be shown beside aggregates without group by; add 'group by name' or remove it"),
                Arguments.of("values group by color show name",
                        "values group by color show name" + "\n"
                        + "                           ^^^^" + "\n"
                        + "field 'name' is not a group by key; with group by, show only group keys (color) and aggregates"),
                Arguments.of("values where name = \"abc",
                        "values where name = \"abc" + "\n"
                        + "                    ^^^^" + "\n"
                        + "unterminated string; expected a closing '\"'"),
                Arguments.of("values where color = 1 color",
                        "values where color = 1 color" + "\n"
                        + "                       ^^^^^" + "\n"
                        + "expected 'and', 'or' or a clause (where, group by, show, order by, limit) but found 'color'"),
                Arguments.of("values wher color = 1",
                        "values wher color = 1" + "\n"
                        + "       ^^^^" + "\n"
                        + "expected a clause (where, group by, show, order by, limit) but found 'wher'; did you mean 'where'?"),
                Arguments.of("values where color = 1 where temp",
                        "values where color = 1 where temp" + "\n"
                        + "                       ^^^^^" + "\n"
                        + "'where' may appear only once"),
                Arguments.of("values where count() > 1",
                        "values where count() > 1" + "\n"
                        + "             ^^^^^^" + "\n"
                        + "function 'count' is only allowed in show and order by, not in conditions"),
                Arguments.of("values order by nosuch",
                        "values order by nosuch" + "\n"
                        + "                ^^^^^^" + "\n"
                        + "unknown field or alias 'nosuch' for values"),
                Arguments.of("values show sum(name)",
                        "values show sum(name)" + "\n"
                        + "                ^^^^" + "\n"
                        + "sum() needs a numeric field but found string field 'name'"),
                Arguments.of("values where uses = 1",
                        "values where uses = 1" + "\n"
                        + "             ^^^^" + "\n"
                        + "cannot compare list field 'uses'; lists can only be tested with 'is null'"),
                Arguments.of("values where temp < true",
                        "values where temp < true" + "\n"
                        + "             ^^^^" + "\n"
                        + "unknown field 'temp' for values"),
                Arguments.of("values where (color = 1",
                        "values where (color = 1" + "\n"
                        + "                       ^" + "\n"
                        + "expected ')' to close the '(' at position 14 but found end of query"),
                Arguments.of("values where color in (1, \"a\")",
                        "values where color in (1, \"a\")" + "\n"
                        + "                          ^^^" + "\n"
                        + "expected a number to compare with integer field 'color' but found string \"a\""),
                Arguments.of("values where size > 1.3B",
                        "values where size > 1.3B" + "\n"
                        + "                    ^^^^" + "\n"
                        + "'1.3B' is not a whole number of bytes"),
                Arguments.of("values where size > 99999999999999999999",
                        "values where size > 99999999999999999999" + "\n"
                        + "                    ^^^^^^^^^^^^^^^^^^^^" + "\n"
                        + "number '99999999999999999999' is too large"),
                Arguments.of("values group by colour",
                        "values group by colour" + "\n"
                        + "                ^^^^^^" + "\n"
                        + "unknown field 'colour' for values; did you mean 'color'?"),
                Arguments.of("values order by count()",
                        "values order by count()" + "\n"
                        + "                ^^^^^^^" + "\n"
                        + "cannot order by count() without group by or an aggregate in show"),
                Arguments.of("values show avg(name)",
                        "values show avg(name)" + "\n"
                        + "                ^^^^" + "\n"
                        + "avg() needs a numeric field but found string field 'name'"),
                Arguments.of("allocations where temp and size ~ \"1\"",
                        "allocations where temp and size ~ \"1\"" + "\n"
                        + "                           ^^^^^^" + "\n"
                        + "operator '~' needs a string on its left but found bytes field 'size'"),
                Arguments.of("steps where live_bytes > 1 and",
                        "steps where live_bytes > 1 and" + "\n"
                        + "                              ^" + "\n"
                        + "expected a condition (a field, 'live', 'not' or '(') but found end of query"),
                Arguments.of("values where 1 = \"a\"",
                        "values where 1 = \"a\"" + "\n"
                        + "             ^^^^^^^" + "\n"
                        + "cannot compare number 1 with string \"a\""),
                Arguments.of("values show id as where",
                        "values show id as where" + "\n"
                        + "                  ^^^^^" + "\n"
                        + "expected a name after 'as' ('where' is a reserved word) but found 'where'"),
                Arguments.of("values where live at -1",
                        "values where live at -1" + "\n"
                        + "                     ^^" + "\n"
                        + "expected a step number, 'peak', 'claimed_peak' or an instruction name but found '-1'"),
                Arguments.of("values @ x",
                        "values @ x" + "\n"
                        + "       ^" + "\n"
                        + "unexpected character '@'"),
                Arguments.of("values where size * 2 > 1",
                        "values where size * 2 > 1" + "\n"
                        + "                  ^" + "\n"
                        + "unexpected '*': arithmetic works only in 'order by' (order by size * idle_steps desc); elsewhere name a field"),
                Arguments.of("values order by name * 2",
                        "values order by name * 2" + "\n"
                        + "                ^^^^" + "\n"
                        + "arithmetic needs numeric fields but found string field 'name'"),
                Arguments.of("values where a.b",
                        "values where a.b" + "\n"
                        + "             ^^^" + "\n"
                        + "unknown field 'a.b' for values"),
                Arguments.of("values order by size up",
                        "values order by size up" + "\n"
                        + "                     ^^" + "\n"
                        + "expected 'asc', 'desc', ',' or a clause (where, group by, show, order by, limit) but found 'up'"));
    }

    @ParameterizedTest
    @MethodSource
    void rendered(String query, String expected) {
        QueryException e = assertThrows(QueryException.class, () -> Query.compile(query, Catalog.standard()));
        assertEquals(expected, e.diagnostic().render(query));
    }
}
