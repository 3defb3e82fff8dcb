package bufq.format;

import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.List;

/**
 * {@code ndjson}: newline-delimited JSON for streaming into other tools ({@code jq -c}, DuckDB's
 * {@code read_json_auto}, a log shipper): one row a line, an object whose first key, {@code table},
 * names the row's table (the key json gives it; {@code result} for an untitled one, a query's), then
 * the row's fields as json writes them, note columns included. Several tables are one stream: a
 * reader filters on {@code table}. No title, notes or row count: every line is data. A text is
 * {@code {"text": ...}}, a script's printed line {@code {"print": ...}}.
 */
public final class NdjsonFormatter implements Formatter {
    /** The key naming a row's table; a column of that name is written after it as {@code _table}. */
    static final String TABLE = "table";

    @Override public String name() { return "ndjson"; }
    @Override public boolean forPeople() { return false; }

    @Override public void write(Result result, FormatOptions options, StringBuilder out) {
        List<Output> data = Results.data(result.outputs());
        List<String> names = Results.keys(data);
        for (int i = 0; i < data.size(); i++) {
            if (data.get(i) instanceof Table t) rows(t, data.size() == 1 ? t.key() : names.get(i), out);
            else if (data.get(i) instanceof TextBlock tb) object("text", tb.text(), out);
        }
    }

    @Override public void write(Table table, FormatOptions options, StringBuilder out) {
        rows(table, table.key(), out);
    }

    /** {@code {"print": LINE}}: a line of the stream, as a row is. */
    @Override public void line(String text, FormatOptions options, StringBuilder out) {
        object("print", text, out);
    }

    private static void object(String key, String text, StringBuilder out) {
        out.append('{');
        JsonFormatter.string(key, out);
        out.append(": ");
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
