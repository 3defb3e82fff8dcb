package bufq.format;

import bufq.table.Holding;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;
import bufq.units.PrintedSize;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * A JSON array of row objects, one row per line, keys in column order: integers and sizes as JSON
 * integers, floats and fractions as JSON numbers (non-finite as null), booleans, null as null, lists
 * as arrays, strings escaped per RFC 8259; a {@link PrintedSize} (a size a message printed rounded) as
 * {@code {"printed": "17.79M", "low": N, "high": M}} (an exact one as its number), a {@link Holding}
 * as {@code {"name": ..., "bytes": N}}. The title and notes are not data and are left out; a
 * {@link bufq.table.ColumnType#NOTE} column (a row's note) and a {@link bufq.table.ColumnType#KEY}
 * column (a key for programs) are kept as fields. A
 * command that yields several tables prints one object of named arrays, so every statement's output
 * is one JSON document; the results written to one output join into one document ({@link #document}).
 */
public final class JsonFormatter implements Formatter {
    @Override public String name() { return "json"; }
    @Override public boolean forPeople() { return false; }

    /**
     * The data of a result ({@link Results#data}): one table's array, a text's string, or for
     * several one object of named tables (keys from the tables, see {@link Table#key}).
     */
    @Override public void write(Result result, FormatOptions options, StringBuilder out) {
        List<Output> data = Results.data(result.outputs());
        if (data.size() > 1) {
            several(data, options, out);
            return;
        }
        for (Output o : data) {
            if (o instanceof Table t) write(t, options, out);
            else if (o instanceof TextBlock tb) {
                string(tb.text(), out);
                out.append('\n');
            }
        }
    }

    /** {@code {"print": LINE}}: a document of its own, so the output stays JSON. */
    @Override public void line(String text, FormatOptions options, StringBuilder out) {
        out.append("{\"print\": ");
        string(text, out);
        out.append("}\n");
    }

    /**
     * One JSON document of many results, so {@code json.load} reads any run: the first result alone,
     * or, once a second comes, an array of them in order, closed by {@link Document#end}.
     */
    @Override public Document document() { return new Joined(); }

    private static final class Joined implements Document {
        /** The first result, held until a second makes them an array. */
        private String held;
        private boolean array;

        @Override public String add(String rendered, boolean alone) {
            if (alone) return rendered;
            String d = rendered.endsWith("\n") ? rendered.substring(0, rendered.length() - 1) : rendered;
            if (array) return ",\n" + d;
            if (held == null) {
                held = d;
                return null;
            }
            String out = "[\n" + held + ",\n" + d;
            held = null;
            array = true;
            return out;
        }

        @Override public String end() {
            String out = held != null ? held + "\n" : array ? "\n]\n" : "";
            held = null;
            array = false;
            return out;
        }
    }

    /**
     * One object of named tables; or, when the outputs are the same parts over and over (why on
     * several values: what_it_is, born, ... then what_it_is, born, ... again), an array of such
     * objects, one per repetition, rather than keys numbered {@code _2}, {@code _3}.
     */
    private void several(List<Output> data, FormatOptions options, StringBuilder out) {
        int group = repeatedGroup(data);
        if (group == 0) {
            out.append(object(data, Results.keys(data), options)).append('\n');
            return;
        }
        out.append("[\n");
        for (int from = 0; from < data.size(); from += group) {
            List<Output> one = data.subList(from, from + group);
            out.append("  ").append(object(one, Results.keys(one), options).replace("\n", "\n  "));
            out.append(from + group < data.size() ? ",\n" : "\n");
        }
        out.append("]\n");
    }

    /** {@code { "key": [rows], ... }}, without a final newline. */
    private String object(List<Output> data, List<String> keys, FormatOptions options) {
        StringBuilder out = new StringBuilder("{\n");
        for (int i = 0; i < data.size(); i++) {
            out.append("  ");
            string(keys.get(i), out);
            out.append(": ");
            StringBuilder one = new StringBuilder();
            if (data.get(i) instanceof Table t) write(t, options, one);
            else string(((TextBlock) data.get(i)).text(), one);
            // nested one level: every line after the first moves two columns right
            out.append(one.toString().stripTrailing().replace("\n", "\n  "));
            out.append(i + 1 < data.size() ? ",\n" : "\n");
        }
        return out.append("}").toString();
    }

    /**
     * The length of the group of distinct keys that {@code data}'s keys repeat, at least twice and
     * exactly; 0 when they do not.
     */
    private static int repeatedGroup(List<Output> data) {
        List<String> base = new ArrayList<>();
        for (Output o : data) base.add(o instanceof Table t ? t.key() : "");
        int g = base.subList(1, base.size()).indexOf(base.get(0)) + 1;
        if (g <= 0 || base.get(0).isEmpty() || base.size() % g != 0) return 0;
        if (new HashSet<>(base.subList(0, g)).size() != g) return 0;
        for (int i = g; i < base.size(); i++) if (!base.get(i).equals(base.get(i % g))) return 0;
        return g;
    }


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
        else if (v instanceof PrintedSize p) {
            if (p.isExact()) out.append(p.low());
            else {
                out.append("{\"printed\": ");
                string(p.text(), out);
                out.append(", \"low\": ").append(p.low()).append(", \"high\": ").append(p.high()).append('}');
            }
        }
        else if (v instanceof List<?> l) {
            out.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) out.append(", ");
                value(l.get(i), out);
            }
            out.append(']');
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
                    // U+2028/2029 are legal JSON but break JavaScript consumers, and the bidi controls
                    // (U+202E) reorder what a terminal shows: escape them too (the data stays exact).
                    if (Cells.isControl(ch))
                        out.append(String.format("\\u%04x", (int) ch));
                    else out.append(ch);
                }
            }
        }
        out.append('"');
    }
}
