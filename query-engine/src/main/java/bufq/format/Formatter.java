package bufq.format;

import bufq.table.Table;

import java.util.List;

/** Renders a typed table as text. Pure: the same table and options give the same text. */
public interface Formatter {
    /** The name used by {@code --format} and {@code format NAME}. */
    String name();

    /** Appends the rendering of {@code table}, ending with a newline. */
    void write(Table table, FormatOptions options, StringBuilder out);

    /**
     * Appends the rendering of a result of several tables, {@code names} (unique, the
     * keys json gives them) naming them; by default each table as {@link #write} renders it, in turn.
     */
    default void writeSeveral(List<Table> tables, List<String> names, FormatOptions options, StringBuilder out) {
        for (Table t : tables) write(t, options, out);
    }
}
