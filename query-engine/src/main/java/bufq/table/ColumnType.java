package bufq.table;

/** The type of a result column; formatters render by type (bytes human-readable in tables, raw in csv/json). */
public enum ColumnType {
    /** Java {@code Long}. */
    INT,
    /** Java {@code Long}, a byte count. */
    BYTES,
    /** Java {@code Double}. */
    FLOAT,
    /** Java {@code Double}, a fraction 0..1 shown as a percentage in tables. */
    PERCENT,
    /** Java {@code String}. */
    STRING,
    /** Java {@code Boolean}. */
    BOOL,
    /** Java {@code List<?>} of scalars. */
    LIST,
    /**
     * Java {@code String}, a note about the row (null when none): a field in json, which keeps no
     * notes; left out of table and markdown, which print it under the table, and of csv and tsv.
     */
    NOTE,
    /**
     * Java {@code String}, a key a program joins rows on (the module's handle of a row whose table
     * names its module in the title): a field in json, left out of every other format.
     */
    KEY,
    /**
     * Java {@code String}, a statement the user is meant to run next ({@code whatif ...}, {@code use
     * m}): never cut in any format, since a cut statement pasted back is a wrong one.
     */
    STATEMENT;

    /** Whether only json keeps this column: a note or a key, which the other formats leave out. */
    public boolean jsonOnly() { return this == NOTE || this == KEY; }
}
