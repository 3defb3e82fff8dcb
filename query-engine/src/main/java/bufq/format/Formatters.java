package bufq.format;

import bufq.table.Output;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The output formats by name, and what their renderings of a whole result share. */
public final class Formatters {
    private static final Map<String, Formatter> BY_NAME = new LinkedHashMap<>();

    static {
        for (Formatter f : List.of(new TableFormatter(), new VerticalFormatter(), new MarkdownFormatter(), DelimitedFormatter.CSV,
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
    public static boolean isHuman(Formatter f) { return f.forPeople(); }

    /**
     * Renders one statement's outputs, as {@link Formatter#write(Result, FormatOptions, StringBuilder)}
     * does with no heading and every row. Human formats (table, markdown) print them in order, a blank
     * line between two; a text block prints as is, in markdown inside a code fence so a chart keeps
     * its lines. Data formats print data: a chart's numbers ({@link TextBlock#data}) instead of its
     * drawing, and a drawing without numbers is left out when there are tables beside it. Then
     * json prints one document: the table's array when there is one, else an object of named tables
     * (keys from the titles, see {@link #key}); csv and tsv print a section per table, ndjson a row a
     * line named by its table.
     */
    public static void writeAll(List<? extends Output> outputs, Formatter f, FormatOptions options, StringBuilder out) {
        f.write(Result.of(outputs), options, out);
    }
}
