package bufq.format;

import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.HashSet;

/** The output formats by name, and rendering of a command's outputs (tables and text) in one of them. */
public final class Formatters {
    private static final Map<String, Formatter> BY_NAME = new LinkedHashMap<>();

    static {
        for (Formatter f : List.of(new TableFormatter(), new MarkdownFormatter(), DelimitedFormatter.CSV,
                DelimitedFormatter.TSV, new JsonFormatter(), new NdjsonFormatter()))
            BY_NAME.put(f.name(), f);
    }

    private Formatters() {}

    /** The formatter called {@code name}; throws IllegalArgumentException naming the known formats. */
    public static Formatter byName(String name) {
        Formatter f = BY_NAME.get(name);
        if (f == null) throw new IllegalArgumentException("unknown format '" + name + "' (expected one of "
                + String.join(", ", names()) + ")");
        return f;
    }

    /** Known format names, in the order help lists them. */
    public static List<String> names() { return new ArrayList<>(BY_NAME.keySet()); }

    /** Whether the format is meant for people (row caps and notes apply) rather than for programs. */
    public static boolean isHuman(Formatter f) {
        return f instanceof TableFormatter || f instanceof MarkdownFormatter;
    }

    /**
     * Renders one statement's outputs. Human formats (table, markdown) print them in order, a blank
     * line between two; a text block prints as is, in markdown inside a code fence so a chart keeps
     * its lines. Data formats print data: a chart's numbers ({@link TextBlock#data}) instead of its
     * drawing, and a drawing without numbers is left out when there are tables beside it. Then
     * json prints one document: the table's array when there is one, else an object of named tables
     * (keys from the titles, see {@link #key}); the other data formats print several tables as
     * {@link Formatter#writeSeveral} does (csv and tsv a section per table, ndjson one stream).
     */
    public static void writeAll(List<? extends Output> outputs, Formatter f, FormatOptions options, StringBuilder out) {
        if (isHuman(f)) {
            boolean first = true;
            for (Output o : outputs) {
                if (!first) out.append('\n');
                first = false;
                if (o instanceof Table t) f.write(t.withoutNoteColumns(), options, out);
                else if (o instanceof TextBlock tb) text(tb.text(), f instanceof MarkdownFormatter, out);
            }
            return;
        }
        List<Output> data = data(outputs);
        if (f instanceof JsonFormatter && data.size() > 1) {
            json(data, options, out);
            return;
        }
        boolean json = f instanceof JsonFormatter || f instanceof NdjsonFormatter;
        List<Table> tables = new ArrayList<>();
        for (Output o : data) if (o instanceof Table t) tables.add(json ? t : t.withoutNoteColumns());
        if (tables.size() > 1) {
            f.writeSeveral(tables, keys(data), options, out);
            return;
        }
        for (Output o : data) {
            if (o instanceof Table t) f.write(json ? t : t.withoutNoteColumns(), options, out);
            else if (o instanceof TextBlock tb && f instanceof JsonFormatter) {
                JsonFormatter.string(tb.text(), out);
                out.append('\n');
            } else if (o instanceof TextBlock tb && f instanceof NdjsonFormatter) {
                NdjsonFormatter.text(tb.text(), out);
            } else if (o instanceof TextBlock tb) text(tb.text(), false, out);
        }
    }

    private static void text(String text, boolean fenced, StringBuilder out) {
        String fence = "```";
        while (fenced && text.contains(fence)) fence += "`";
        if (fenced) out.append(fence).append('\n');
        out.append(text);
        if (!text.endsWith("\n")) out.append('\n');
        if (fenced) out.append(fence).append('\n');
    }

    /** What data formats print: tables, charts' tables, and text only when there is nothing else. */
    private static List<Output> data(List<? extends Output> outputs) {
        List<Output> tables = new ArrayList<>();
        for (Output o : outputs) {
            if (o instanceof Table t) tables.add(t);
            else if (o instanceof TextBlock tb && tb.data() != null) tables.add(tb.data());
        }
        return tables.isEmpty() ? List.copyOf(outputs) : tables;
    }

    /**
     * One object of named tables; or, when the outputs are the same parts over and over (why on
     * several values: what_it_is, born, ... then what_it_is, born, ... again), an array of such
     * objects, one per repetition, rather than keys numbered {@code _2}, {@code _3}.
     */
    private static void json(List<Output> data, FormatOptions options, StringBuilder out) {
        int group = repeatedGroup(data);
        if (group == 0) {
            out.append(object(data, keys(data), options)).append('\n');
            return;
        }
        out.append("[\n");
        for (int from = 0; from < data.size(); from += group) {
            List<Output> one = data.subList(from, from + group);
            out.append("  ").append(object(one, keys(one), options).replace("\n", "\n  "));
            out.append(from + group < data.size() ? ",\n" : "\n");
        }
        out.append("]\n");
    }

    /** {@code { "key": [rows], ... }}, without a final newline. */
    private static String object(List<Output> data, List<String> keys, FormatOptions options) {
        StringBuilder out = new StringBuilder("{\n");
        for (int i = 0; i < data.size(); i++) {
            out.append("  ");
            JsonFormatter.string(keys.get(i), out);
            out.append(": ");
            StringBuilder one = new StringBuilder();
            if (data.get(i) instanceof Table t) new JsonFormatter().write(t, options, one);
            else JsonFormatter.string(((TextBlock) data.get(i)).text(), one);
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
        for (Output o : data) base.add(o instanceof Table t && t.title() != null ? key(t.title()) : "");
        int g = base.subList(1, base.size()).indexOf(base.get(0)) + 1;
        if (g <= 0 || base.get(0).isEmpty() || base.size() % g != 0) return 0;
        if (new HashSet<>(base.subList(0, g)).size() != g) return 0;
        for (int i = g; i < base.size(); i++) if (!base.get(i).equals(base.get(i % g))) return 0;
        return g;
    }

    /** Unique keys for several outputs: each table's {@link #key}, numbered when two agree. */
    private static List<String> keys(List<Output> data) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            String k = data.get(i) instanceof Table t && t.title() != null ? key(t.title()) : "";
            if (k.isEmpty()) k = (data.get(i) instanceof Table ? "table_" : "text_") + (i + 1);
            String base = k;
            for (int n = 2; keys.contains(k); n++) k = base + "_" + n;
            keys.add(k);
        }
        return keys;
    }

    /**
     * A table's key in a json object: its title up to the first detail (a digit, parenthesis, colon
     * or comma), lowercase, words joined by {@code _}: "values live at step 13 (fusion.5)" is
     * {@code values_live_at_step}, the same for every module.
     */
    public static String key(String title) {
        return Cells.key(title);
    }
}
