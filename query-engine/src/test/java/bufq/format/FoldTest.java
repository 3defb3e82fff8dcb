package bufq.format;

import bufq.table.ColumnType;
import bufq.table.Table;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where nothing may be cut (a pipe, a file), the table format keeps its lines to the fold: first the
 * statements go under their rows, then the table prints one field per line; notes break at spaces.
 * Every word of every cell is still printed.
 */
class FoldTest {
    private static final String EDIT = "whatif remat where category = \"residuals\" and idle_at_peak and op_name != \"reduce_sum\"";
    private static final String FINDING = ("24 activations of 9 op_names (48.1MiB) wait across the peak for the backward pass: "
            + "stack the layers' parameters and run them with jax.lax.scan(jax.checkpoint(layer), x, stacked_params), ").repeat(2);
    private static final String NOTE = "saves: never more than a real recompilation of that kind delivered on this backend; "
            .repeat(5);

    private static Table advice(String finding) {
        return Table.builder().key("advice").column("rank", ColumnType.INT).column("change", ColumnType.STRING)
                .column("finding", ColumnType.STRING).column("whatif", ColumnType.STATEMENT)
                .row(1L, "scan-remat", finding, EDIT).row(2L, "f32", "2 large f32 buffers", "whatif scale where id in (63, 65) by 0.5")
                .note(NOTE).build();
    }

    private static String render(Table t, int fold) {
        StringBuilder out = new StringBuilder();
        Formatters.byName("table").write(t, new FormatOptions(false, false, 0, 0, false, fold), out);
        return out.toString();
    }

    private static int longest(String text) {
        return Arrays.stream(text.split("\n")).mapToInt(String::length).max().orElse(0);
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.split("[\\s|]+")).filter(w -> !w.isEmpty()).toList();
    }

    @Test
    void aLongTextGoesWholeUnderItsRowLabelled() {
        String text = render(advice(FINDING), 160);
        assertFalse(text.contains("RECORD"), text);
        assertTrue(text.contains("\n    finding: 24 activations"), text);
        assertTrue(text.contains("finding, whatif printed whole under each row"), text);
        assertTrue(longest(text) <= 160, "longest line " + longest(text) + ":\n" + text);
        String flat = String.join(" ", words(text));
        assertTrue(flat.contains(String.join(" ", words(FINDING))), "the finding whole:\n" + text);
        assertTrue(flat.contains(String.join(" ", words(NOTE))), "the note whole:\n" + text);
        assertTrue(text.contains(EDIT), "the statement on one line, as it runs:\n" + text);
    }

    @Test
    void aRowOfManyNumbersPrintsOneFieldPerLine() {
        Table.Builder b = Table.builder().key("wide").column("name", ColumnType.STRING);
        Object[] row = new Object[30];
        row[0] = "jit_train_step";
        for (int c = 1; c < 30; c++) {
            b.column("figure_" + c, ColumnType.BYTES);
            row[c] = 1L << 40;
        }
        String text = render(b.row(row).build(), 160);
        assertTrue(text.contains("-[ RECORD 1 ]"), text);
        assertTrue(text.contains("one field per line: its rows are wider than 160 columns (set foldwidth 0"), text);
        assertTrue(longest(text) <= 160, text);
        assertTrue(text.contains("figure_29 | 1.0TiB"), text);
    }

    @Test
    void statementsGoUnderTheirRowsWhenThatIsEnough() {
        String text = render(advice("2 large f32 buffers are live at the peak"), 100);
        assertFalse(text.contains("RECORD"), text);
        assertTrue(text.contains("\n    " + EDIT + "\n"), text);
        assertTrue(text.contains("whatif printed whole under each row"), text);
        assertTrue(longest(text) <= 100, text);
    }

    @Test
    void foldZeroKeepsARowALine() {
        String text = render(advice(FINDING), 0);
        assertFalse(text.contains("RECORD"), text);
        String row = Arrays.stream(text.split("\n")).filter(l -> l.startsWith("   1")).findFirst().orElseThrow();
        assertTrue(row.contains(FINDING.strip()) && row.endsWith(EDIT), row);
        assertTrue(text.contains(NOTE.strip()), "the note on one line: " + text);
    }

    @Test
    void aTerminalIsFittedByItsWidthNotTheFold() {
        StringBuilder out = new StringBuilder();
        Formatters.byName("table").write(advice(FINDING), new FormatOptions(false, false, 80, 80, true, 400), out);
        assertTrue(longest(out.toString()) <= 80, out.toString());
        assertFalse(out.toString().contains("foldwidth"), out.toString());
        assertEquals(80, new FormatOptions(false, false, 80, 80, true, 400).wrapWidth());
        assertEquals(400, new FormatOptions(false, false, 0, 0, false, 400).wrapWidth());
    }
}
