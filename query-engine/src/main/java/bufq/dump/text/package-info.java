/**
 * The text sections of a buffer-assignment dump, one single-pass scanner per section: allocations
 * ({@link bufq.dump.text.AllocationPart}), used values ({@link bufq.dump.text.ValuesPart}), live
 * ranges ({@link bufq.dump.text.LiveRangePart}), the memory usage report
 * ({@link bufq.dump.text.ReportPart}), over a {@link bufq.dump.text.Lines} walk and a
 * {@code Cursor}; names and shapes go through an {@link bufq.dump.text.Interner}. The cursor, the
 * instruction and shape grammars and the limits are this package's own.
 *
 * <p>Nothing here knows files or modules: {@code bufq.dump} finds and opens the files, cuts them
 * into regions and hands each region's text to these scanners, then joins their results (and says
 * where a file it cut was cut short: {@link bufq.dump.text.RegionParse#cutShortAt}).
 */
package bufq.dump.text;
