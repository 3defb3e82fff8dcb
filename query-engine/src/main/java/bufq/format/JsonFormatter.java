package bufq.format;

import bufq.table.Holding;
import bufq.table.Table;
import bufq.units.PrintedSize;

import java.util.List;

/**
 * A JSON array of row objects, one row per line, keys in column order: integers and sizes as JSON
 * integers, floats and fractions as JSON numbers (non-finite as null), booleans, null as null, lists
 * as arrays, strings escaped per RFC 8259; a {@link PrintedSize} (a size a message printed rounded) as
 * {@code {"printed": "17.79M", "low": N, "high": M}}, a {@link Holding} as {@code {"name": ..., "bytes": N}}. The title and notes are not data and are left out; a
 * {@link bufq.table.ColumnType#NOTE} column, a row's note, is kept as a field. A
 * command that yields several tables prints one object of named arrays ({@link Formatters#writeAll}),
 * so every statement's output is one JSON document.
 */
public final class JsonFormatter implements Formatter {
    @Override public String name() { return "json"; }

    @Override public void write(Table table, FormatOptions options, StringBuilder out) {
        if (table.size() == 0) {
            out.append("[]\n");
            return;
        }
        out.append("[\n");
        for (int r = 0; r < table.size(); r++) {
            out.append("  {");
            for (int c = 0; c < table.width(); c++) {
                if (c > 0) out.append(", ");
                string(table.columns().get(c).name(), out);
                out.append(": ");
                value(table.cell(r, c), out);
            }
            out.append(r + 1 < table.size() ? "},\n" : "}\n");
        }
        out.append("]\n");
    }

    /** Appends {@code v} as a JSON value. */
    public static void value(Object v, StringBuilder out) {
        if (v == null) out.append("null");
        else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            out.append(Double.isFinite(d) ? Cells.exactDouble(d) : "null");
        } else if (v instanceof Number || v instanceof Boolean) out.append(v);
        else if (v instanceof List<?> l) {
            out.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) out.append(", ");
                value(l.get(i), out);
            }
            out.append(']');
        } else if (v instanceof PrintedSize p) {
            // a size a message printed rounded: its text, and the byte counts that print that way
            out.append("{\"printed\": ");
            string(p.text(), out);
            out.append(", \"low\": ").append(p.low()).append(", \"high\": ").append(p.high()).append('}');
        } else if (v instanceof Holding h) {
            out.append("{\"name\": ");
            string(h.name(), out);
            out.append(", \"bytes\": ").append(h.bytes()).append('}');
        } else string(v.toString(), out);
    }

    /** Appends {@code s} as a JSON string: quotes, backslashes and control characters escaped. */
    public static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    // U+2028/2029 are legal JSON but break JavaScript consumers; escape them too.
                    if (ch < 0x20 || ch == 0x7f || ch == '\u2028' || ch == '\u2029')
                        out.append(String.format("\\u%04x", (int) ch));
                    else out.append(ch);
                }
            }
        }
        out.append('"');
    }
}
