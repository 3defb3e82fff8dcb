package bufq.lang;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ParserTest {
    static Stream<Arguments> printed() {
        return Stream.of(
                // the nine examples of the first brief
                Arguments.of("values where color=1 and live at 13", "values where ((color = 1) and (live at 13))"),
                Arguments.of("values where live at peak order by size desc limit 10",
                        "values where (live at peak) order by size desc limit 10"),
                Arguments.of("values where live at peak show sum(logical_size)",
                        "values where (live at peak) show sum(logical_size)"),
                Arguments.of("values where name ~ \"fusion\" and size >= 4KiB show id, name, size, offset, allocation",
                        "values where ((name ~ \"fusion\") and (size >= 4096)) show id, name, size, offset, allocation"),
                Arguments.of("values group by color show color, count(), sum(size)",
                        "values group by color show color, count(), sum(size)"),
                Arguments.of("values where live during 5..9 and color = 1 order by offset",
                        "values where ((live during 5..9) and (color = 1)) order by offset"),
                Arguments.of("allocations where temp order by size desc", "allocations where temp order by size desc"),
                Arguments.of("values where live at peak(2) order by size desc", "values where (live at peak(2)) order by size desc"),
                Arguments.of("instructions where opcode = \"fusion\" and op_name ~ \"softmax\"",
                        "instructions where ((opcode = \"fusion\") and (op_name ~ \"softmax\"))"),
                Arguments.of("steps order by live_bytes desc limit 5", "steps order by live_bytes desc limit 5"),
                // precedence: not > and > or; parentheses
                Arguments.of("values where a = 1 or b = 2 and c = 3", "values where ((a = 1) or ((b = 2) and (c = 3)))"),
                Arguments.of("values where (a = 1 or b = 2) and not c", "values where (((a = 1) or (b = 2)) and (not c))"),
                Arguments.of("values where not not x", "values where (not (not x))"),
                // clauses in any order, keywords in any case
                Arguments.of("values LIMIT 3 SHOW id WHERE temp", "values where temp show id limit 3"),
                Arguments.of("values order by size asc, id desc", "values order by size, id desc"),
                // units and numbers
                Arguments.of("values where size > 1.5MiB", "values where (size > 1572864)"),
                Arguments.of("values where size < 2GiB and size > 4kb", "values where ((size < 2147483648) and (size > 4000))"),
                Arguments.of("values where size = 3B or x = 2.5", "values where ((size = 3) or (x = 2.5))"),
                Arguments.of("values where offset > -1", "values where (offset > -1)"),
                // operators and their aliases
                Arguments.of("values where a == 1 and b <> 2 and c !~ \"x\"", "values where ((a = 1) and (b != 2) and (c !~ \"x\"))"),
                Arguments.of("values where color in (0, 1) and name not in (\"a\")",
                        "values where ((color in (0, 1)) and (name not in (\"a\")))"),
                Arguments.of("values where end is null or start is not null", "values where ((end is null) or (start is not null))"),
                Arguments.of("values where temp = true", "values where (temp = true)"),
                // strings with escapes
                Arguments.of("values where name = \"a\\\"b\\\\c\"", "values where (name = \"a\\\"b\\\\c\")"),
                // liveness with names
                Arguments.of("values where live at fusion.2", "values where (live at fusion.2)"),
                Arguments.of("values where live at %custom-call.1", "values where (live at custom-call.1)"),
                Arguments.of("values where live during fusion.1..copy.3", "values where (live during fusion.1..copy.3)"),
                Arguments.of("values where live at \"odd name\"", "values where (live at odd name)"),
                // show with aliases, order by aggregates
                Arguments.of("values group by color show count() as n order by n desc",
                        "values group by color show count() as n order by n desc"),
                Arguments.of("values group by color, dtype show max(size)", "values group by color, dtype show max(size)"));
    }

    @ParameterizedTest
    @MethodSource
    void printed(String query, String expected) throws QueryException {
        assertEquals(expected, Parser.parse(query).print());
    }

    @ParameterizedTest
    @MethodSource("printed")
    void printedFormParsesToItself(String query, String expected) throws QueryException {
        // skip the quoted-name case: print() shows a name, not a literal
        if (query.contains("\"odd name\"")) return;
        assertEquals(expected, Parser.parse(expected).print());
    }

    @org.junit.jupiter.api.Test
    void deepNestingIsADiagnosticNotAStackOverflow() {
        String q = "values where " + "(".repeat(200) + "temp" + ")".repeat(200);
        QueryException e = assertThrows(QueryException.class, () -> Parser.parse(q));
        assertEquals(true, e.diagnostic().message().startsWith("expression nested too deeply"));
        String nots = "values where " + "not ".repeat(100_000) + "temp";
        assertThrows(QueryException.class, () -> Parser.parse(nots));
    }

    @org.junit.jupiter.api.Test
    void longFlatChainsDoNotRecurse() throws QueryException {
        // As many conditions as a query may have: the chain is a list, not 10,000 nested nodes.
        String q = "values where " + "temp and ".repeat(Parser.MAX_CONDITIONS - 1) + "temp";
        assertEquals(Parser.MAX_CONDITIONS, ((Ast.And) Parser.parse(q).where()).terms().size());
    }

    /** A query past the bounds is refused before it is lexed, with the bound in the message. */
    @org.junit.jupiter.api.Test
    void queriesPastTheBoundsAreRefused() {
        String many = "values where " + "temp and ".repeat(Parser.MAX_CONDITIONS) + "temp";
        QueryException e = assertThrows(QueryException.class, () -> Parser.parse(many));
        assertEquals("too many conditions in one query (more than 10000); split it, or list values with 'in (...)'", e.diagnostic().message());
        String longQ = "values where name = \"" + "x".repeat(Parser.MAX_LENGTH) + "\"";
        e = assertThrows(QueryException.class, () -> Parser.parse(longQ));
        assertEquals("query too long (" + longQ.length() + " characters, at most 200000)", e.diagnostic().message());
        assertEquals(false, Parser.needsMore(longQ + " and"), "refused at once, not continued");
    }

    @org.junit.jupiter.api.Test
    void needsMoreForUnfinishedInputOnly() {
        for (String q : new String[] {"values where", "values where color = 1 and", "values where (color = 1",
                "values where name = \"fus", "values where live during 3..", "values show count(", "values group"}) {
            assertEquals(true, Parser.needsMore(q), q);
        }
        for (String q : new String[] {"", "values", "values where color = 1", "values wher", "values where colr = 1 )",
                "values @ x", "values where color = 1 limit 1.5"}) {
            assertEquals(false, Parser.needsMore(q), q);
        }
    }
}
