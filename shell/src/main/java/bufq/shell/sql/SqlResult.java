package bufq.shell.sql;

import bufq.table.Table;

/** What {@link Sql#query} gives: the rows, and whether more were left unread past {@link Sql#MAX_CELLS}. */
public record SqlResult(Table table, boolean cut) {}
