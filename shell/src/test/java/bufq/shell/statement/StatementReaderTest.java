package bufq.shell.statement;

import bufq.shell.statement.StatementReader;
import bufq.shell.script.JsSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class StatementReaderTest {
    static final List<String> ENTITIES = List.of("values", "allocations", "instructions", "steps");

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', value = {
            "values|false",
            "values where|true",
            "values where size > 4KiB and|true",
            "values where size > 4KiB AND|true",
            "values where size >|true",
            "values where size >=|true",
            "values where name ~ \"fus|true",
            "values where name ~ \"fus\"|false",
            "values where (color = 1 or color = 2|true",
            "values where (color = 1 or color = 2)|false",
            "values show id,|true",
            "values where live during 5..|true",
            "values order by|true",
            "values order by size desc|false",
            "values limit|true",
            "values group by color show count()|false",
            "summary|false",
            "set maxrows|false",
            "help where|false",
            "valuesx where|false"})
    void unfinishedQueriesNeedMore(String text, boolean more) {
        assertEquals(more, StatementReader.needsMore(text, ENTITIES, JsSource::incomplete));
    }

    @Test
    void windowsScriptsWork() throws IOException {
        StatementReader r = new StatementReader(new BufferedReader(new StringReader("\uFEFFsummary\r\nvalues where\r\n  size > 1\r\n")), ENTITIES, JsSource::incomplete);
        assertEquals(new StatementReader.Statement("summary", 1), r.next());
        assertEquals(new StatementReader.Statement("values where size > 1", 2), r.next());
        assertNull(r.next());
    }

    @Test
    void cutsScriptsIntoStatementsWithTheirFirstLine() throws IOException {
        String script = "# comment\n\nvalues where\n  size > 1KiB\nsummary\n  # indented comment\nset \\\n  maxrows 5\n"
                + "values where live at peak\n  order by size desc\n  LIMIT 3\nvalues\n\nwhere x\nvalues where (a\n";
        StatementReader r = new StatementReader(new BufferedReader(new StringReader(script)), ENTITIES, JsSource::incomplete);
        List<StatementReader.Statement> got = new ArrayList<>();
        for (StatementReader.Statement s; (s = r.next()) != null; ) got.add(s);
        assertEquals(List.of(new StatementReader.Statement("values where size > 1KiB", 3),
                new StatementReader.Statement("summary", 5),
                new StatementReader.Statement("set maxrows 5", 7),
                new StatementReader.Statement("values where live at peak order by size desc LIMIT 3", 9),
                new StatementReader.Statement("values", 12),
                new StatementReader.Statement("where x", 14),
                new StatementReader.Statement("values where (a", 15)), got);
    }

    @Test
    void sqlCommentsAreSkippedAndCutFromQueryLines() throws IOException {
        String script = "-- totals first\nsummary\n  -- indented\nvalues where color = 1 -- the big colour\n"
                + "  and size > 1KiB # only big ones\n  order by size desc\ntimeline --svg t.svg\n";
        StatementReader r = new StatementReader(new BufferedReader(new StringReader(script)), ENTITIES, JsSource::incomplete);
        List<StatementReader.Statement> got = new ArrayList<>();
        for (StatementReader.Statement s; (s = r.next()) != null; ) got.add(s);
        assertEquals(List.of(new StatementReader.Statement("summary", 2),
                new StatementReader.Statement("values where color = 1 and size > 1KiB order by size desc", 4),
                // a command's words are its own: --svg is an option, not a comment
                new StatementReader.Statement("timeline --svg t.svg", 7)), got);
    }
}
