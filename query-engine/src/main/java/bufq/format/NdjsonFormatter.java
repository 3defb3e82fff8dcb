package bufq.format;

import bufq.table.Table;

import java.util.List;

/**
 * {@code ndjson}: newline-delimited JSON for streaming into other tools ({@code jq -c}, DuckDB's
 * {@code read_json_auto}, a log shipper): one row a line, an object whose first key, {@code table},
 * names the row's table (the key json gives it), then the row's fields
 * as json writes them. Several tables are one stream: a reader filters on {@code table}. No title,
 * notes or row count: every line is data.
 */
public final class NdjsonFormatter implements Formatter {
    /** The key naming a row's table; a column of that name is written after it as {@code _table}. */
    static final String TABLE = "table";

    @Override public String name() { return "ndjson"; }

    @Override public void write(Table table, FormatOptions options, StringBuilder out) {
        rows(table, name(table), out);
    }

    @Override public void writeSeveral(List<Table> tables, List<String> names, FormatOptions options, StringBuilder out) {
        for (int i = 0; i < tables.size(); i++) rows(tables.get(i), names.get(i), out);
    }

    /** A table's name when it stands alone: its json key, or {@code result} for an untitled table (a query's). */
    static String name(Table table) {
        String key = table.title() == null ? "" : Cells.key(table.title());
        return key.isEmpty() ? "result" : key;
    }

    /** One line of json for {@code text} (what a command prints that is no table): {@code {"text": "..."}}. */
    static void text(String text, StringBuilder out) {
        out.append("{\"text\": ");
        JsonFormatter.string(text, out);
        out.append("}\n");
    }

    private static void rows(Table table, String name, StringBuilder out) {
        for (int r = 0; r < table.size(); r++) {
            out.append('{');
            JsonFormatter.string(TABLE, out);
            out.append(": ");
            JsonFormatter.string(name, out);
            for (int c = 0; c < table.width(); c++) {
                out.append(", ");
                String key = table.columns().get(c).name();
                JsonFormatter.string(key.equals(TABLE) ? "_" + TABLE : key, out);
                out.append(": ");
                JsonFormatter.value(table.cell(r, c), out);
            }
            out.append("}\n");
        }
    }
}
