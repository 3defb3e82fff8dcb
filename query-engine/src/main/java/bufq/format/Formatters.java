package bufq.format;

import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The output formats by name, and rendering of a command's outputs (tables and text) in one of them. */
public final class Formatters {
    private static final Map<String, Formatter> BY_NAME = new LinkedHashMap<>();

    static {
        for (Formatter f : List.of(new TableFormatter(), new MarkdownFormatter(), DelimitedFormatter.CSV,
                DelimitedFormatter.TSV, new JsonFormatter()))
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
     * Renders several outputs in order. Tables go through {@code f}; text blocks print as is, except
     * in json where each becomes a JSON string on its own line so the stream stays parseable, and in
     * markdown where each goes in a code fence so it renders with its lines intact. In human formats
     * consecutive outputs are separated by a blank line.
     */
    public static void writeAll(List<? extends Output> outputs, Formatter f, FormatOptions options, StringBuilder out) {
        boolean first = true;
        for (Output o : outputs) {
            if (!first && isHuman(f)) out.append('\n');
            first = false;
            if (o instanceof Table t) f.write(t, options, out);
            else if (o instanceof TextBlock tb) {
                if (f instanceof JsonFormatter) {
                    JsonFormatter.string(tb.text(), out);
                    out.append('\n');
                } else if (f instanceof MarkdownFormatter) {
                    // A chart or tree keeps its lines and alignment only inside a code fence.
                    String fence = "```";
                    while (tb.text().contains(fence)) fence += "`";
                    out.append(fence).append('\n').append(tb.text());
                    if (!tb.text().endsWith("\n")) out.append('\n');
                    out.append(fence).append('\n');
                } else {
                    out.append(tb.text());
                    if (!tb.text().endsWith("\n")) out.append('\n');
                }
            }
        }
    }
}
