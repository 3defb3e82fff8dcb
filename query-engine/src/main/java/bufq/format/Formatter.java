package bufq.format;

import bufq.table.Table;

/** Renders a typed table as text. Pure: the same table and options give the same text. */
public interface Formatter {
    /** The name used by {@code --format} and {@code format NAME}. */
    String name();

    /** Appends the rendering of {@code table}, ending with a newline. */
    void write(Table table, FormatOptions options, StringBuilder out);
}
