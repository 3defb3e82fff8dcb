/**
 * The text sections of a buffer-assignment dump, one single-pass scanner per section: allocations
 * ({@link bufq.dump.text.AllocationPart}), used values ({@link bufq.dump.text.ValuesPart}), live
 * ranges ({@link bufq.dump.text.LiveRangePart}), the memory usage report
 * ({@link bufq.dump.text.ReportPart}), over a {@link bufq.dump.text.Lines} walk and a
 * {@link bufq.dump.text.Cursor}; names and shapes go through an {@link bufq.dump.text.Interner}.
 *
 * <p>Nothing here knows files or modules: {@code bufq.dump} finds and opens the files, cuts them
 * into regions and hands each region's text to these scanners, then joins their results.
 */
package bufq.dump.text;
