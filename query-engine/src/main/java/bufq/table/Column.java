package bufq.table;

/**
 * A named, typed column.
 *
 * @param optional a detail a narrow terminal leaves out before other columns (see the table format)
 */
public record Column(String name, ColumnType type, boolean optional) {
    public Column(String name, ColumnType type) { this(name, type, false); }
}
