package bufq.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One statement's outputs in each format: one json document, csv of one table, charts as numbers. */
class WriteAllTest {
    private static final Table PEAK = Table.builder().key("peak_of_live_bytes").title("peak of live bytes (jit_f)").column("peak_bytes", ColumnType.BYTES)
            .row(10L).build();
    private static final Table LIVE = Table.builder().key("values_live_at_step").title("values live at step 3 (fusion.1)").column("value", ColumnType.STRING)
            .row("a").row("b").build();
    private static final Table STEPS = Table.builder().key("live_bytes_by_step").title("live bytes by step (jit_f)").column("step", ColumnType.INT)
            .column("live_bytes", ColumnType.BYTES).row(0L, 5L).row(1L, 10L).build();

    private static String write(List<Output> outs, String format) {
        StringBuilder b = new StringBuilder();
        Formatters.writeAll(outs, Formatters.byName(format), FormatOptions.DEFAULT, b);
        return b.toString();
    }

    @Test
    void severalTablesAreOneJsonObjectKeyedByTheirKeys() {
        assertEquals("{\n"
                + "  \"peak_of_live_bytes\": [\n"
                + "    {\"peak_bytes\": 10}\n"
                + "  ],\n"
                + "  \"values_live_at_step\": [\n"
                + "    {\"value\": \"a\"},\n"
                + "    {\"value\": \"b\"}\n"
                + "  ]\n"
                + "}\n", write(List.of(PEAK, LIVE), "json"));
        // one table stays the array it always was
        assertEquals("[\n  {\"peak_bytes\": 10}\n]\n", write(List.of(PEAK), "json"));
        // equal keys still get distinct ones
        assertEquals(List.of("values_live_at_step", "peak_of_live_bytes", "values_live_at_step_2"), List.of(write(List.of(LIVE, PEAK, LIVE), "json")
                .lines().filter(l -> l.endsWith("[")).map(l -> l.strip().split("\"")[1]).toArray()));
    }

    @Test
    void csvOfSeveralTablesIsOneSectionPerTable() {
        assertEquals("# peak_of_live_bytes\npeak_bytes\n10\n\n# values_live_at_step\nvalue\na\nb\n", write(List.of(PEAK, LIVE), "csv"));
        assertEquals("# peak_of_live_bytes\npeak_bytes\n10\n\n# values_live_at_step\nvalue\na\nb\n", write(List.of(PEAK, LIVE), "tsv"));
        assertEquals("peak_bytes\n10\n", write(List.of(PEAK), "csv"), "one table has no section line");
    }

    @Test
    void ndjsonIsOneRowALineNamedByItsTable() {
        assertEquals("{\"table\": \"peak_of_live_bytes\", \"peak_bytes\": 10}\n"
                + "{\"table\": \"values_live_at_step\", \"value\": \"a\"}\n"
                + "{\"table\": \"values_live_at_step\", \"value\": \"b\"}\n", write(List.of(PEAK, LIVE), "ndjson"));
        assertEquals("{\"table\": \"result\", \"value\": \"a\"}\n{\"table\": \"result\", \"value\": \"b\"}\n",
                write(List.of(Table.builder().key("result").column("value", ColumnType.STRING).row("a").row("b").build()), "ndjson"), "a query's table");
        Table named = Table.builder().key("result").column("table", ColumnType.STRING).column("why", ColumnType.NOTE).row("t", "a note").build();
        assertEquals("{\"table\": \"result\", \"_table\": \"t\", \"why\": \"a note\"}\n", write(List.of(named), "ndjson"),
                "a column called table does not hide the table's name; notes are data, as in json");
        assertEquals("{\"text\": \"a\\nb\"}\n", write(List.of(new TextBlock("a\nb", null)), "ndjson"));
    }

    @Test
    void chartsPrintTheirNumbersInDataFormats() {
        TextBlock chart = new TextBlock("▁▂█\n", STEPS);
        assertEquals("step,live_bytes\n0,5\n1,10\n", write(List.of(chart), "csv"));
        assertEquals("[\n  {\"step\": 0, \"live_bytes\": 5},\n  {\"step\": 1, \"live_bytes\": 10}\n]\n", write(List.of(chart), "json"));
        assertEquals("▁▂█\n", write(List.of(chart), "table"));
        // a drawing without numbers beside a table is left out of data formats; alone it is kept
        assertEquals("value\na\nb\n", write(List.of(new TextBlock("picture\n"), LIVE), "csv"));
        assertEquals("\"help text\"\n", write(List.of(new TextBlock("help text")), "json"));
    }

    @Test
    void aTableReachesJsonOnlyWithTheKeyItsProducerGave() {
        // the key is not read from the title: other wording, or none, leaves it as it was
        assertEquals("values_live_at_step", LIVE.withTitle("values live at step 4 (fusion.2), 2 values").key());
        assertEquals("{\"table\": \"values_live_at_step\", \"value\": \"a\"}", write(List.of(LIVE.withTitle(null)), "ndjson").lines()
                .findFirst().orElseThrow());
        // a table without a key is refused when it is made, so none can reach a data format
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Table.builder().title("values live at step 3").column("value", ColumnType.STRING).build());
        assertEquals("a table needs a key, its name in json: 'values live at step 3' has none", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Table.builder().key(" ").column("value", ColumnType.STRING).build());
        assertThrows(IllegalArgumentException.class, () -> new Table(null, LIVE.columns(), LIVE.rows(), List.of(), null));
    }
}
