package bufq.table;

/** What a query or command produces: typed tables, or preformatted text such as a chart. */
public sealed interface Output permits Table, TextBlock {}
