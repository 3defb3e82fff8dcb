package bufq.table;

/**
 * A named, typed column.
 *
 * @param optional a detail a narrow terminal leaves out before other columns (see the table format)
 * @param note     a line about this column printed under the table only while the column is shown
 *                 (a format that leaves the column out for width leaves its note out too); null for none
 */
public record Column(String name, ColumnType type, boolean optional, String note) {
    public Column(String name, ColumnType type) { this(name, type, false, null); }

    public Column(String name, ColumnType type, boolean optional) { this(name, type, optional, null); }

    /** This column with {@code note} about it. */
    public Column withNote(String note) { return new Column(name, type, optional, note); }
}
