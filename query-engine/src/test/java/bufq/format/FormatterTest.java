package bufq.format;

import bufq.units.Units;
import bufq.table.ColumnType;
import bufq.table.Table;
import bufq.table.TextBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

class FormatterTest {
    @ParameterizedTest
    @CsvSource({"0,0B", "1023,1023B", "1024,1.0KiB", "4096,4.0KiB", "1536,1.5KiB", "84737228,80.8MiB",
            "1048570,1.0MiB", "1048524,1023.9KiB", "1073741824,1.0GiB", "-2048,-2.0KiB"})
    void humanSizes(long bytes, String expected) {
        assertEquals(expected, Units.human(bytes));
    }

    /** Reads the csv back with an independent RFC 4180 reader: every cell survives the round trip. */
    @Test
    void csvRoundTrips() {
        Table t = FormatterGoldenTest.mixed();
        StringBuilder out = new StringBuilder();
        Formatters.byName("csv").write(t, FormatOptions.DEFAULT, out);
        List<List<String>> rows = parseCsv(out.toString());
        assertEquals(t.size() + 1, rows.size());
        assertEquals(List.of("name", "size", "uses", "share", "avg", "live_out", "dims"), rows.get(0));
        for (int r = 0; r < t.size(); r++) assertEquals(t.cell(r, 0), rows.get(r + 1).get(0));
        assertEquals("83886080", rows.get(3).get(1));
        assertEquals("", rows.get(4).get(1));
        assertEquals("[x, y,z]", rows.get(4).get(6));
    }

    @Test
    void tsvHasNoRawTabsOrNewlinesInsideCells() {
        StringBuilder out = new StringBuilder();
        Formatters.byName("tsv").write(FormatterGoldenTest.mixed(), FormatOptions.DEFAULT, out);
        String[] lines = out.toString().split("\n", -1);
        assertEquals(FormatterGoldenTest.mixed().size() + 2, lines.length); // header, rows, trailing ""
        for (int i = 0; i < lines.length - 1; i++) assertEquals(6, lines[i].chars().filter(c -> c == '\t').count(), lines[i]);
    }

    @Test
    void tableAlignsNumbersRightAndCountsRows() {
        Table t = Table.builder().key("result").column("name", ColumnType.STRING).column("size", ColumnType.BYTES)
                .row("a", 4096L).row("longer", 16L).build();
        StringBuilder out = new StringBuilder();
        Formatters.byName("table").write(t, FormatOptions.DEFAULT, out);
        assertEquals("name      size\n------  ------\na       4.0KiB\nlonger     16B\n(2 rows)\n", out.toString());
    }

    @Test
    void tableCutsLongCellsOnlyWhenAsked() {
        Table t = Table.builder().key("result").column("op_name", ColumnType.STRING).column("n", ColumnType.INT)
                .row("jit(step)/jvp()/transpose/dot_general", 1L).row("short", 2L).build();
        StringBuilder out = new StringBuilder();
        Formatters.byName("table").write(t, new FormatOptions(false, false, 12), out);
        // a path-like cell loses its middle
        assertEquals("op_name       n\n------------  -\njit…_general  1\nshort         2\n(2 rows)\n"
                + "column op_name cut with … at maxwidth 12 (set maxwidth 0, or --format markdown, shows it whole)\n", out.toString());
        out.setLength(0);
        Formatters.byName("table").write(t, FormatOptions.DEFAULT, out);
        assertTrue(out.toString().contains("jit(step)/jvp()/transpose/dot_general"));
        out.setLength(0);
        Formatters.byName("csv").write(t, new FormatOptions(false, false, 12), out);
        assertTrue(out.toString().contains("jit(step)/jvp()/transpose/dot_general"), "data formats never cut");
    }

    @Test
    void markdownKeepsNamesLiteral() {
        Table t = Table.builder().key("result").column("name", ColumnType.STRING)
                .row("jit_f").row("__main__").row("a*b `x`").row("x_").row("<script>").build();
        StringBuilder out = new StringBuilder();
        Formatters.byName("markdown").write(t, FormatOptions.DEFAULT, out);
        assertEquals("| name |\n| --- |\n| jit_f |\n| \\_\\_main\\_\\_ |\n| a\\*b \\`x\\` |\n| x\\_ |\n| &lt;script> |\n\n(5 rows)\n",
                out.toString());
    }

    @Test
    void csvAndTsvEscapeControlCharactersOnATerminalOnly() {
        Table t = Table.builder().key("result").column("op_name", ColumnType.STRING).row("a\033[31m\007b\tc\nd").build();
        FormatOptions terminal = new FormatOptions(false, false, 0, 0, true);
        for (String f : List.of("csv", "tsv")) {
            StringBuilder shown = new StringBuilder(), file = new StringBuilder();
            Formatters.byName(f).write(t, terminal, shown);
            Formatters.byName(f).write(t, FormatOptions.DEFAULT, file);
            assertFalse(shown.toString().contains("\033") || shown.toString().contains("\007"), f + ": " + shown);
            assertTrue(shown.toString().contains("a\\x1b[31m\\x07b"), f + ": " + shown);
            assertTrue(file.toString().contains("a\033[31m\007b"), f + " keeps the data exact in files: " + file);
        }
        StringBuilder tsv = new StringBuilder();
        Formatters.byName("tsv").write(t, terminal, tsv);
        assertEquals("op_name\na\\x1b[31m\\x07b\\tc\\nd\n", tsv.toString(), "tsv's own escapes are not escaped twice");
    }

    @Test
    void tableFitsTheTerminalCuttingTextThenLeavingOutColumns() {
        Table t = Table.builder().key("result").column("id", ColumnType.INT).column("label", ColumnType.STRING)
                .column("size", ColumnType.BYTES).column("shape", ColumnType.STRING).column("start", ColumnType.INT)
                .row(1L, "convert_element_type_fusion.12345", 4096L, "f32[4096,1024,8]{2,1,0:T(8,128)}", 3L).build();
        StringBuilder out = new StringBuilder();
        Formatters.byName("table").write(t, new FormatOptions(false, false, 0, 70), out);
        for (String line : out.toString().split("\n")) assertTrue(line.length() <= 70, line);
        // text columns are cut to SOFT_TEXT columns, the widest first
        assertTrue(out.toString().contains(" convert_element_type_fu…  4.0KiB  f32[4096,1024,8]{2,1,0:T…"), out.toString());
        // narrower still: rather than cut text to a stub or leave out columns, one field per line, whole
        out.setLength(0);
        Formatters.byName("table").write(t, new FormatOptions(false, false, 0, 44), out);
        for (String line : out.toString().split("\n")) assertTrue(line.length() <= 44, line);
        assertTrue(out.toString().contains("-[ RECORD 1 ]"), out.toString());
        assertTrue(out.toString().contains("label | convert_element_type_fusion.12345\n"), out.toString());
        assertTrue(out.toString().contains("shape | f32[4096,1024,8]{2,1,0:T(8,128)}\n"), out.toString());
        assertTrue(out.toString().contains("one field per line: the table is too wide\n"), out.toString());
        // an empty column goes before that: the table stays a table
        Table sparse = Table.builder().key("result").column("id", ColumnType.INT).column("label", ColumnType.STRING)
                .column("note", ColumnType.STRING).row(1L, "a".repeat(30), null).build();
        out.setLength(0);
        Formatters.byName("table").write(sparse, new FormatOptions(false, false, 0, 36), out);
        assertTrue(out.toString().contains("column note left out"), out.toString());
        // tables of commands that take no show (summary, peak) must not offer it
        assertFalse(out.toString().contains("show picks"), out.toString());
        // no width: every column, nothing cut
        out.setLength(0);
        Formatters.byName("table").write(t, FormatOptions.DEFAULT, out);
        assertTrue(out.toString().contains("f32[4096,1024,8]{2,1,0:T(8,128)}  "), out.toString());
    }

    @Test
    void aNarrowTableLosesItsEmptyThenOptionalColumnsAndWrapsNotesAtSpaces() {
        Table t = Table.builder().key("result").column("name", ColumnType.STRING).column("allocation", ColumnType.INT)
                .optionalColumn("detail", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("padding", ColumnType.BYTES)
                .column("op_name", ColumnType.STRING)
                .row("fusion.1", null, "something long enough", 4096L, 0L, "jit(step)/jvp()/div")
                .row("fusion.2", null, "something else entirely", 8192L, 0L, "jit(step)/jvp()/mul")
                .note("a note long enough that it cannot fit in forty columns and must wrap between words").build();
        StringBuilder out = new StringBuilder();
        Formatters.byName("table").write(t, new FormatOptions(false, false, 0, 50), out);
        String text = out.toString();
        for (String line : text.split("\n")) assertTrue(line.length() <= 50, line);
        // the all-null and all-zero columns go first, then the optional one; op_name, at the right, stays
        assertTrue(text.contains("jit(step)/jvp()/div"), text);
        assertTrue(text.replace('\n', ' ').contains("3 columns: allocation, detail, padding left out"), text);
        assertTrue(text.contains("\na note long enough that it cannot fit in forty\ncolumns and must wrap between words\n"), text);
    }

    @Test
    void tableEscapesTerminalControlCharacters() {
        Table t = Table.builder().key("result").column("s", ColumnType.STRING).row("x\033[31my").build();
        StringBuilder out = new StringBuilder();
        Formatters.byName("table").write(t, FormatOptions.DEFAULT, out);
        assertFalse(out.toString().contains("\033"));
        assertTrue(out.toString().contains("x\\x1b[31my"));
    }

    @Test
    void jsonIsOneDocumentAndTextAloneAString() {
        Table t = Table.builder().key("peak").column("n", ColumnType.INT).row(1L).build();
        Table u = Table.builder().key("steps").column("n", ColumnType.INT).row(1L).build();
        StringBuilder out = new StringBuilder();
        Formatters.writeAll(List.of(t, new TextBlock("chart \"x\"\n"), u), Formatters.byName("json"), FormatOptions.DEFAULT, out);
        assertEquals("{\n  \"peak\": [\n    {\"n\": 1}\n  ],\n  \"steps\": [\n    {\"n\": 1}\n  ]\n}\n", out.toString());
        out.setLength(0);
        Formatters.writeAll(List.of(new TextBlock("chart \"x\"\n")), Formatters.byName("json"), FormatOptions.DEFAULT, out);
        assertEquals("\"chart \\\"x\\\"\\n\"\n", out.toString());
    }

    @Test
    void jsonOfTheSamePartsAgainIsAnArrayOfObjects() {
        Table a = Table.builder().key("what_it_is").title("what it is: x").column("n", ColumnType.INT).row(1L).build();
        Table b = Table.builder().key("born").title("born: x").column("n", ColumnType.INT).row(2L).build();
        StringBuilder out = new StringBuilder();
        Formatters.writeAll(List.of(a, b, a, b), Formatters.byName("json"), FormatOptions.DEFAULT, out);
        String one = "  {\n    \"what_it_is\": [\n      {\"n\": 1}\n    ],\n    \"born\": [\n      {\"n\": 2}\n    ]\n  }";
        assertEquals("[\n" + one + ",\n" + one + "\n]\n", out.toString());
        out.setLength(0);
        Formatters.writeAll(List.of(a, b, a), Formatters.byName("json"), FormatOptions.DEFAULT, out);
        assertTrue(out.toString().startsWith("{\n") && out.toString().contains("\"what_it_is_2\""), "not whole groups: " + out);
    }

    @Test
    void markdownFencesText() {
        StringBuilder out = new StringBuilder();
        Formatters.writeAll(List.of(new TextBlock("a\n  └── b"), new TextBlock("has ``` inside\n")), Formatters.byName("markdown"),
                FormatOptions.DEFAULT, out);
        assertEquals("```\na\n  └── b\n```\n\n````\nhas ``` inside\n````\n", out.toString());
    }

    @Test
    void jsonNonFiniteIsNull() {
        Table t = Table.builder().key("result").column("f", ColumnType.FLOAT).row(Double.NaN).row(Double.POSITIVE_INFINITY).row(1e300).build();
        StringBuilder out = new StringBuilder();
        Formatters.byName("json").write(t, FormatOptions.DEFAULT, out);
        assertTrue(out.toString().contains("{\"f\": null},\n  {\"f\": null}"), out.toString());
        assertTrue(out.toString().contains("{\"f\": 1.0E300}"), out.toString());
    }

    /** A float field of 2^-20 printed 9.5367431640625E-7; ordinary magnitudes take no exponent anywhere. */
    @ParameterizedTest
    @CsvSource({"9.5367431640625E-7,0.0000009537,0.00000095367431640625", "0.00012345678,0.0001235,0.00012345678",
            "1234.56789,1234.568,1234.56789", "1.5E-15,1.5e-15,1.5E-15", "-2.0E-5,-0.00002,-0.00002", "0,0.0,0.0"})
    void floatsReadWithoutExponent(double d, String human, String exact) {
        Table t = Table.builder().key("result").column("f", ColumnType.FLOAT).row(d).build();
        assertEquals(human, render("table", t).lines().skip(2).findFirst().orElseThrow().strip());
        assertEquals(exact, render("csv", t).lines().skip(1).findFirst().orElseThrow());
        String json = render("json", t);
        assertTrue(json.contains("{\"f\": " + exact + "}"), json);
        assertEquals(d, Double.parseDouble(exact), 0.0);  // still exact
    }

    private static String render(String format, Table t) {
        StringBuilder out = new StringBuilder();
        Formatters.byName(format).write(t, FormatOptions.DEFAULT, out);
        return out.toString();
    }

    /**
     * At 80 columns every op_name read "jit(step)/…". A path-like cell loses its middle,
     * so rows stay apart by their ends, and the key column keeps its width while others shrink.
     */
    @Test
    void narrowTerminalsKeepTheEndOfPathsAndTheKeyColumn() {
        Table t = Table.builder().key("result").column("op_name", ColumnType.STRING).column("before", ColumnType.BYTES)
                .column("after", ColumnType.BYTES).column("shape", ColumnType.STRING).column("source", ColumnType.STRING)
                .row("jit(step)/jvp(transformer)/attention/dot_general", 4096L, 2048L, "f32[8,128,256]{2,1,0}", "/home/me/model/attention.py:41")
                .row("jit(step)/jvp(transformer)/mlp/dot_general", 4096L, 4096L, "f32[8,128,1024]{2,1,0}", "/home/me/model/mlp.py:12")
                .row("jit(step)/transpose(jvp(transformer))/mlp/add", 1024L, 0L, "f32[8,128]{1,0}", "/home/me/model/mlp.py:13")
                .build();
        StringBuilder out = new StringBuilder();
        Formatters.byName("table").write(t, new FormatOptions(false, false, 80, 90), out);
        String text = out.toString();
        for (String line : text.split("\n")) assertTrue(line.length() <= 90, line);
        List<String> rows = text.lines().skip(2).limit(3).toList();
        assertTrue(rows.get(0).startsWith("jit(ste…") && rows.get(0).contains("tion/dot_general"), text);
        assertTrue(rows.get(1).contains("mlp/dot_general") && rows.get(2).contains("/mlp/add"), text);
        assertTrue(rows.stream().anyMatch(r -> r.contains("ention.py:41")), text);
        // the key column keeps SOFT_TEXT columns however narrow, the others go first
        out.setLength(0);
        Formatters.byName("table").write(t, new FormatOptions(false, false, 80, 90), out);
        String first = out.toString().lines().skip(2).findFirst().orElseThrow();
        assertTrue(first.indexOf("  ") >= TableFormatter.SOFT_TEXT && first.contains("dot_general"), out.toString());
        // a handle keeps its number
        assertEquals("jit_b…st_in_dim#3", TableFormatter.cut("jit_broadcast_in_dim#3", 17));
        assertEquals("convert_e…", TableFormatter.cut("convert_element_type", 10));
    }

    @Test
    void unknownFormatListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Formatters.byName("xml"));
        assertEquals("unknown format 'xml' (expected one of table, vertical, markdown, csv, tsv, json, ndjson)", e.getMessage());
    }

    static List<List<String>> parseCsv(String text) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') { cell.append('"'); i++; }
                else if (ch == '"') quoted = false;
                else cell.append(ch);
            } else if (ch == '"') quoted = true;
            else if (ch == ',') { row.add(cell.toString()); cell.setLength(0); }
            else if (ch == '\n') { row.add(cell.toString()); cell.setLength(0); rows.add(row); row = new ArrayList<>(); }
            else cell.append(ch);
        }
        return rows;
    }
}
