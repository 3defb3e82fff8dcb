package bufq.table;

/** A named, typed column. */
public record Column(String name, ColumnType type) {}
