package bufq.shell.repl;

import bufq.shell.run.Shell;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** What colour each part of a line gets while typing. */
class ReplHighlighterTest {
    @TempDir Path tmp;
    Shell shell;
    boolean colour = true;
    ReplHighlighter h;

    @BeforeEach
    void setUp() throws IOException {
        shell = new Transcript(tmp).open(InputStream.nullInputStream());
        h = new ReplHighlighter(shell, () -> shell.engine().catalog(), () -> colour);
    }

    /** The style of the first occurrence of {@code part} in {@code line} (checked on every character). */
    AttributedStyle style(String line, String part) {
        AttributedStyle[] s = h.styles(line);
        int at = line.indexOf(part);
        assertTrue(at >= 0, part);
        for (int i = at + 1; i < at + part.length(); i++) assertEquals(s[at], s[i], "uniform style over '" + part + "'");
        return s[at];
    }

    @Test
    void queryParts() {
        String q = "values where size >= 1.5KiB and label = \"add.14\" group by color show color, count() order by color desc";
        assertEquals(ReplHighlighter.ENTITY, style(q, "values"));
        assertEquals(ReplHighlighter.KEYWORD, style(q, "where"));
        assertEquals(ReplHighlighter.FIELD, style(q, "size"));
        assertEquals(ReplHighlighter.NUMBER, style(q, "1.5"));
        assertEquals(ReplHighlighter.UNIT, style(q, "KiB"));
        assertEquals(ReplHighlighter.STRING, style(q, "\"add.14\""));
        assertEquals(ReplHighlighter.KEYWORD, style(q, "desc"));
        assertEquals(ReplHighlighter.FUNCTION, style(q, "count"));
    }

    @Test
    void errorsAreRedOnceTypedPast() {
        assertEquals(ReplHighlighter.ERROR, style("values where colr = 1", "colr"));
        assertEquals(ReplHighlighter.ERROR, style("values where colr ", "colr"));
        assertNotEquals(ReplHighlighter.ERROR, style("values where colr", "colr"), "may still become 'color'");
        for (AttributedStyle s : h.styles("values where (size > 1 and "))
            assertNotEquals(ReplHighlighter.ERROR, s, "unfinished is not wrong");
        assertEquals(ReplHighlighter.ERROR, style("values where size > 3XB and", "3XB"));
    }

    @Test
    void unknownInstructionsAreRedOnceTypedPast() {
        assertEquals(ReplHighlighter.ERROR, style("values where live at nosuch.1 show count()", "nosuch.1"));
        assertNotEquals(ReplHighlighter.ERROR, style("values where live at nosuch.1", "nosuch.1"), "may still be typed on");
        assertNotEquals(ReplHighlighter.ERROR, style("values where live at fusion show count()", "fusion"), "scheduled");
        assertEquals(ReplHighlighter.ERROR, style("values where live during fusion..nosuch show count()", "nosuch"));
        assertNotEquals(ReplHighlighter.ERROR, style("values show size as nosuch, label", "nosuch"), "an alias is no instruction");
    }

    @Test
    void commands() {
        assertEquals(ReplHighlighter.COMMAND, style("load x.txt", "load"));
        assertEquals(ReplHighlighter.ERROR, style("lod x.txt", "lod"));
        assertNotEquals(ReplHighlighter.ERROR, style("lo", "lo"), "still typing");
        assertEquals(ReplHighlighter.STRING, style("output \"my file.csv\"", "\"my file.csv\""));
    }

    @Test
    void jlineErrorIndexIsMarked() {
        h.setErrorIndex(2);
        assertEquals(ReplHighlighter.ERROR, h.styles("values")[2]);
    }

    @Test
    void noColourMeansPlainText() {
        colour = false;
        AttributedString a = h.highlight(null, "values where colr = 1");
        for (int i = 0; i < a.length(); i++) assertEquals(AttributedStyle.DEFAULT, a.styleAt(i));
        colour = true;
        assertNotEquals(AttributedStyle.DEFAULT, h.highlight(null, "values where colr = 1").styleAt(0));
    }
}
