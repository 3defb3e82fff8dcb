/**
 * Comparing two compilations of one program: {@link bufq.analysis.diff.ModuleDiff#compare}
 * gives a {@link bufq.analysis.diff.DiffResult}, which {@link bufq.analysis.diff.DiffTables#render} turns into typed tables:
 * summary (peaks, allocation totals, per-kind bytes), bytes live at peak by op_name, the same by
 * source line, and values on one side only. {@link bufq.analysis.diff.ModulePairs} pairs the
 * modules of two dump directories by program name.
 *
 * <p>Values are matched on (op_name, source line, shape, role), never on instruction names, which
 * change between compilations. Logical sizes throughout, as XLA's own peak figures use.
 */
package bufq.analysis.diff;
