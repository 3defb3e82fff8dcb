package bufq.shell.repl;

import bufq.shell.script.JsSource;
import org.jline.reader.EOFError;
import org.jline.reader.Parser.ParseContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** When Enter asks for another line, and how a line is cut into words for completion. */
class ReplParserTest {
    final ReplParser parser = new ReplParser(() -> List.of("values", "allocations", "instructions", "steps"), JsSource::incomplete);

    void accepts(String line) {
        assertDoesNotThrow(() -> parser.parse(line, line.length(), ParseContext.ACCEPT_LINE), line);
    }

    void continues(String line) {
        assertThrows(EOFError.class, () -> parser.parse(line, line.length(), ParseContext.ACCEPT_LINE), line);
        assertDoesNotThrow(() -> parser.parse(line, line.length(), ParseContext.COMPLETE), "never while completing");
    }

    @Test
    void unfinishedQueriesContinue() {
        continues("values where (size > 1KiB");
        continues("values where size > 1KiB and");
        continues("values where size > 1KiB or");
        continues("values where not");
        continues("values where size >=");
        continues("values where label = \"fusion");
        continues("values where");
        continues("values where (size > 1 and\n(color = 1");
        continues("help \\");
        continues("load a.txt \\  ");
    }

    @Test
    void finishedQueriesAndCommandsAreAccepted() {
        accepts("values");
        accepts("values where size > 1KiB and color = 1");
        accepts("values where label = \"a(b\"");
        accepts("values where (size > 1\n)");
        accepts("help and");         // a command never continues without a backslash
        accepts("values where colr = 1 )");  // wrong, but finished: the error is shown, not more input asked
        accepts("");
    }

    @Test
    void wordsForCompletion() {
        ReplParser.ReplLine l = parser.split("values where size>=1KiB and label = \"ab c", 41);
        assertEquals(List.of("values", "where", "size", "1KiB", "and", "label", "\"ab c"), l.words());
        assertEquals(6, l.wordIndex());
        assertEquals("\"ab c", l.word());
        ReplParser.ReplLine gap = parser.split("values where ", 13);
        assertEquals("", gap.word());
        assertEquals(2, gap.wordIndex());
        assertEquals(13, gap.wordStart());
        ReplParser.ReplLine cmd = parser.split("load ~/dumps/a.txt", 18);
        assertEquals(List.of("load", "~/dumps/a.txt"), cmd.words(), "commands split on blanks only");
        ReplParser.ReplLine mid = parser.split("values where siz", 14);
        assertEquals("siz", mid.word());
        assertEquals(1, mid.wordCursor());
    }

    @Test
    void joinedStatement() {
        assertEquals("help formats", ReplParser.joined("help \\\n  formats"));
        assertEquals("values where size > 1", ReplParser.joined("values where\nsize > 1"));
        String buf = "values where \\\nsize";
        assertEquals(buf.length(), ReplParser.statement(buf).length(), "offsets survive for completion");
    }

    @Test
    void javascriptContinuesWhileABracketIsOpenAndKeepsItsLines() {
        continues("js function f(x) {");
        continues("js var s = `a\n${1 +");
        accepts("js 1 + 1");
        accepts("js // a comment\n1 + 1");
        assertEquals("js // a comment\n1 + 1", ReplParser.toRun("js // a comment\n1 + 1\n"), "line breaks kept for js");
        assertEquals("values where size > 1", ReplParser.toRun("values where\nsize > 1"));
    }
}
