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
    LIST
}
