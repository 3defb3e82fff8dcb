package bufq.eval;

import bufq.table.ColumnType;

/** A field of an entity as completion, {@code fields} and scripts see it. */
public record FieldInfo(String name, ColumnType type, String doc) {}
