package bufq.format;

import bufq.table.ColumnType;
import bufq.table.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** A statement cell is never cut, and what the table format loses it says in one line. */
class NeverCutTest {
    private static final String EDIT = "whatif scale where id in (76, 81, 63, 67, 80, 61, 90, 91, 92, 93, 94, 95) by 0.5";

    private static Table advice() {
        return Table.builder().key("result").column("rank", ColumnType.INT).column("rule", ColumnType.STRING)
                .column("finding", ColumnType.STRING).column("whatif", ColumnType.STATEMENT)
                .row(1L, "f32", "6 large f32 buffers are live at the peak: bf16 would halve them, and 3 more would halve if cast", EDIT).build();
    }

    /** The text with a statement's continuation lines (under a row, or of a vertical field) joined back. */
    static String joined(String text) {
        return text.replaceAll("\n {6}(?=\\S)", " ").replaceAll("\n +\\| ", " ");
    }

    @Test
    void aStatementIsWholeAtEveryWidthAndMaxwidth() {
        for (int width : new int[] {40, 80, 120, 0}) {
            for (int max : new int[] {10, 30, 80}) {
                StringBuilder out = new StringBuilder();
                Formatters.byName("table").write(advice(), new FormatOptions(false, false, max, width), out);
                assertTrue(joined(out.toString()).contains(EDIT), width + "/" + max + ":\n" + out);
            }
        }
        StringBuilder md = new StringBuilder();
        Formatters.byName("markdown").write(advice(), new FormatOptions(false, false, 10, 40), md);
        assertTrue(md.toString().contains(EDIT.replace("*", "\\*")), md.toString());
    }

    @Test
    void whatIsCutIsNamedInOneLineWithTheWayToSeeIt() {
        StringBuilder out = new StringBuilder();
        Formatters.byName("table").write(advice(), new FormatOptions(false, false, 80, 80), out);
        String text = out.toString();
        // the statement is wider than its room: it goes whole on lines of its own (broken at spaces
        // where the terminal is narrower than it), the finding is cut
        assertTrue(joined(text).contains("\n    " + EDIT + "\n"), text);
        assertTrue(text.replace('\n', ' ').contains("whatif printed whole under each row; column finding cut with … to fit"
                + " 80 columns (set maxwidth 0, or --format markdown, shows it whole)"), text);
        for (String line : text.split("\n")) assertTrue(line.length() <= 80, line);
        out.setLength(0);
        Formatters.byName("table").write(advice(), new FormatOptions(false, false, 0, 0), out);
        assertFalse(out.toString().contains("cut with"), "nothing cut, nothing said: " + out);
    }

    @Test
    void aColumnsNoteGoesWithTheColumn() {
        Table t = Table.builder().key("result").column("module", ColumnType.STRING).column("evidence", ColumnType.STRING)
                .optionalColumn("detail", ColumnType.STRING).columnNote("detail", "detail says where the figure comes from")
                .note("a note of the table").row("jit_train_step", "size and shape match", "x".repeat(60)).build();
        StringBuilder wide = new StringBuilder(), narrow = new StringBuilder();
        Formatters.byName("table").write(t, FormatOptions.DEFAULT, wide);
        Formatters.byName("table").write(t, new FormatOptions(false, false, 0, 50), narrow);
        assertTrue(wide.toString().contains("detail says where"), wide.toString());
        assertFalse(narrow.toString().contains("detail says where"), "left out with its column: " + narrow);
        assertTrue(narrow.toString().contains("a note of the table"), narrow.toString());
        assertTrue(narrow.toString().contains("column detail left out to fit 50 columns"), narrow.toString());
        StringBuilder md = new StringBuilder();
        Formatters.byName("markdown").write(t, FormatOptions.DEFAULT, md);
        assertTrue(md.toString().contains("detail says where"), md.toString());
    }

    /** A size printed rounded, and a name with its bytes, are objects in json, their text in tables. */
    @Test
    void printedSizesAndHoldingsAreDataInJson() {
        Table t = Table.builder().key("result").column("capacity", ColumnType.STRING).column("top", ColumnType.LIST)
                .row(new bufq.units.PrintedSize("17.79M", 18_648_925L, 18_660_432L), List.of(new bufq.table.Holding("w1", 16_777_216L)))
                .build();
        StringBuilder json = new StringBuilder(), table = new StringBuilder();
        Formatters.byName("json").write(t, FormatOptions.DEFAULT, json);
        Formatters.byName("table").write(t, FormatOptions.DEFAULT, table);
        assertEquals("[\n  {\"capacity\": {\"printed\": \"17.79M\", \"low\": 18648925, \"high\": 18660432}, "
                + "\"top\": [{\"name\": \"w1\", \"bytes\": 16777216}]}\n]\n", json.toString());
        assertTrue(table.toString().contains("17.79M (18,648,925..18,660,432 B)  [w1 16.0MiB]"), table.toString());
    }
}
