package bufq.analysis.diff;

/**
 * How {@link ModuleDiff#compare} looks at two modules.
 *
 * @param atPeak limit every part to the values live at each side's peak time: the per-kind summary rows
 *               become bytes live at peak, and only values live at peak are matched (the peak and
 *               allocation rows stay whole-module figures, and the op_name/source parts are always at peak)
 * @param limit  most rows per detail table in {@link DiffTables#render} (the summary is never cut);
 *               negative for all
 */
public record DiffOptions(boolean atPeak, int limit) {
    public static final DiffOptions DEFAULT = new DiffOptions(false, 20);

    public DiffOptions withAtPeak(boolean b) { return new DiffOptions(b, limit); }
    public DiffOptions withLimit(int n) { return new DiffOptions(atPeak, n); }
}
