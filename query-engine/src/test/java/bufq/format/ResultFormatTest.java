package bufq.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.table.ColumnType;
import bufq.table.Table;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * A formatter takes a whole result: what heads it and how many rows a table keeps are the result's,
 * and each format decides what of them it shows, so the session that prints never asks which format
 * it has. Formats for people show the heading and cut tables; formats for programs print all the data.
 */
class ResultFormatTest {
    private static final Table THREE = Table.builder().key("values").title("values").column("id", ColumnType.INT)
            .row(10L).row(20L).row(30L).build();

    private static String write(String format, Result r) {
        StringBuilder b = new StringBuilder();
        Formatters.byName(format).write(r, FormatOptions.DEFAULT, b);
        return b.toString();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // format | for people | what heads it
            "table    | true       | '-- values order by id'",
            "markdown | true       | '#### `values order by id`'",
            "csv      | false      | ''",
            "tsv      | false      | ''",
            "json     | false      | ''",
    })
    void eachFormatDecidesWhatOfTheResultItShows(String format, boolean people, String heading) {
        assertEquals(people, Formatters.byName(format).forPeople(), format);
        String shown = write(format, new Result(List.of(THREE), "values order by id", 2));
        String whole = write(format, Result.of(List.of(THREE)));
        if (people) {
            assertTrue(shown.startsWith(heading + "\n"), shown);
            assertFalse(shown.contains("30"), "cut to two rows: " + shown);
            assertTrue(whole.contains("30"), whole);
        } else {
            assertEquals(whole, shown, "a data format prints every row and no heading");
            assertTrue(whole.contains("30"), whole);
        }
    }

    /** json joins the results of one output into one document: the first alone, an array once a second comes. */
    @Test
    void jsonJoinsResultsIntoOneDocument() {
        Formatter json = Formatters.byName("json");
        Formatter.Document one = json.document();
        assertNull(one.add("[]\n", false), "held until it is known to be alone");
        assertEquals("[]\n", one.end());
        assertEquals("", one.end(), "nothing is open any more");

        Formatter.Document two = json.document();
        StringBuilder line = new StringBuilder();
        json.line("hi", FormatOptions.DEFAULT, line);
        assertEquals("{\"print\": \"hi\"}\n", line.toString());
        assertNull(two.add(line.toString(), false));
        assertEquals("[\n{\"print\": \"hi\"},\n[]", two.add("[]\n", false));
        assertEquals("{\"a\": 1}\n", two.add("{\"a\": 1}\n", true), "a document of its own passes as it is");
        assertEquals("\n]\n", two.end());
    }

    /** The other formats write each result as it is; markdown keeps two results apart by a blank line. */
    @Test
    void otherFormatsWriteEachResultAsItIs() {
        for (String f : List.of("table", "markdown", "csv", "tsv")) {
            Formatter.Document d = Formatters.byName(f).document();
            assertEquals("x\n", d.add("x\n", false), f);
            assertEquals("", d.end(), f);
            assertEquals(f.equals("markdown") ? "\n" : "", Formatters.byName(f).between(), f);
        }
    }
}
