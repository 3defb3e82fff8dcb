package bufq.table;

/**
 * An item of a {@link ColumnType#LIST} cell: a name and the bytes it holds (an op_name prefix at a
 * peak). People read it as {@code w1 16.0MiB}; json gets {@code {"name": "w1", "bytes": 16777216}},
 * so a script reads the figure without parsing the text.
 */
public record Holding(String name, long bytes) {}
