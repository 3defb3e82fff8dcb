package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.dump.DumpLoader;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.table.Table;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code ~} operator runs RE2/J: the patterns that ran the JDK's engine for ever are
 * refused at compile time with a caret at their spot, and what RE2 syntax lacks is said so.
 */
class RegexTest {
    private static final Catalog CATALOG = Catalog.standard();

    private static HloModule module() throws Exception {
        String dump = "BufferAssignment:\nallocation 0: size 64, parameter 0, shape |f32[16]| at ShapeIndex {}:\n"
                + " value: <0 fusion.12 @0> (size=64,offset=0): f32[16]{0}\n"
                + "allocation 1: size 64, parameter 1, shape |f32[16]| at ShapeIndex {}:\n"
                + " value: <1 Arg_1.2 @0> (size=64,offset=0): f32[16]{0}\n";
        return DumpLoader.loadText("module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt", dump);
    }

    private static QueryException refused(String q) {
        return assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThrows(QueryException.class, () -> Query.compile(q, CATALOG)));
    }

    /** The caret line under the query, as the shell shows it. */
    private static String caret(String q, QueryException e) {
        return e.diagnostic().render(q).split("\n")[1];
    }

    @Test
    void theIssuesRunawayPatternsAreRefusedAtTheirRepeat() {
        for (String pattern : List.of("a?{2147483647}$", "(?:){2147483647}")) {
            String q = "values where name ~ \"" + pattern + "\"";
            QueryException e = refused(q);
            assertEquals("bad regular expression: invalid repeat count", e.diagnostic().message());
            int at = q.indexOf("{2147483647}");
            assertEquals(" ".repeat(at) + "^".repeat("{2147483647}".length()), caret(q, e));
        }
    }

    @Test
    void nestedRepeatsThatExpandPastTheBoundAreRefusedQuickly() {
        QueryException e = refused("values where name ~ \"((a{1000}){1000}){1000}\"");
        assertTrue(e.diagnostic().message().startsWith("regular expression too large once its repetitions are expanded"),
                e.diagnostic().message());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "(a)\\1|\\1|back-references are not supported",
            "x(?=y)|(?=|look-around is not supported",
            "a**|**|invalid nested repetition operator",
            "[z-a]|z-a|invalid character class range",
    })
    void whatRe2RefusesIsLocated(String pattern, String spot, String says) {
        String q = "values where name !~ \"" + pattern + "\"";
        QueryException e = refused(q);
        assertTrue(e.diagnostic().message().contains(says), e.diagnostic().message());
        int at = q.indexOf(spot, q.indexOf('"'));
        assertEquals(" ".repeat(at) + "^".repeat(spot.length()), caret(q, e));
    }

    @Test
    void everydayPatternsStillMatch() throws Exception {
        Table t = Query.compile("values where name ~ \"^fusion\\\\.\\\\d+$\" or name ~ \"(?i)^arg_\" show name order by name", CATALOG)
                .run(new EvalContext(module()));
        assertEquals(2, t.rows().size());
        assertEquals("Arg_1.2", t.cell(0, 0));
    }

    @Test
    void theSizeEstimateCountsRepeatsOfGroups() {
        assertEquals(3, Regex.expandedSize("abc"));
        assertTrue(Regex.expandedSize("(a{1000}){1000}") >= 1_000_000);
        assertTrue(Regex.expandedSize("[a-z]{10}") <= 20);
        assertTrue(Regex.expandedSize("x{2,}") < 10);
    }
}
