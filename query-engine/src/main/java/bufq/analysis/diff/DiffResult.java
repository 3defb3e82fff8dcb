package bufq.analysis.diff;

import bufq.analysis.sharding.ShardingChanges;
import java.util.List;
import java.util.Objects;

/**
 * The comparison of two compilations of one program. Immutable; {@link DiffTables#render} turns it
 * into typed tables (summary, op_name changes, source-line changes, values only on one side), so the
 * result knows nothing of how it is shown.
 *
 * @param before    label of the first module (its handle, or {@code dir/handle} when handles clash)
 * @param after     label of the second module
 * @param options   the options it was computed with
 * @param peakBefore the first module's peak
 * @param peakAfter  the second module's peak
 * @param summary   peak, allocation and per-kind totals; always the same measures in the same order
 * @param byOpName  bytes live at each side's peak per framework op_name, changed groups only,
 *                  largest |change| first
 * @param bySource  the same per {@code source_file:source_line}; empty when neither dump carries source
 *                  metadata (jaxlib 0.10 prints {@code stack_frame_id} only), see {@code hasSources}
 * @param unmatched values whose (op_name, source, shape, role) found no partner, largest first
 * @param renamed   pairs of {@code unmatched} rows that differ only in op_name context (a hint, see
 *                  {@link Renamed}); they stay in {@code unmatched}
 * @param shardings the arguments cut otherwise on the two sides (their HLO text beside each dump)
 * @param caveats   what limits the comparison (no live ranges, rounded sizes, no op_name metadata,
 *                  load warnings), one line each, shown under the summary
 * @param hasSources some value on either side has {@code source_file} metadata
 * @param byCategory bytes occupied at each side's peak by category ({@code bufq.analysis.category}, each byte
 *                   once), every category either side holds, the largest change first
 */
public record DiffResult(String before, String after, DiffOptions options, Peak peakBefore, Peak peakAfter,
                         List<SummaryRow> summary, List<GroupChange> byOpName, List<GroupChange> bySource,
                         List<Unmatched> unmatched, List<Renamed> renamed, List<String> caveats,
                         boolean hasSources, List<GroupChange> byCategory, List<ShardingChanges.Change> shardings) {
    public DiffResult {
        shardings = List.copyOf(shardings);
        byCategory = List.copyOf(byCategory);
        summary = List.copyOf(summary);
        byOpName = List.copyOf(byOpName);
        bySource = List.copyOf(bySource);
        unmatched = List.copyOf(unmatched);
        renamed = List.copyOf(renamed);
        caveats = List.copyOf(caveats);
    }

    /**
     * One side's peak.
     *
     * @param time       the peak step (the module's {@code liveness().peakTime()}); -1 without live ranges
     * @param steps      program points in the schedule
     * @param claimed    the dump's own figure at its label step (last cumulative number), or null when it printed none
     * @param recomputed bytes occupied at {@code time} ({@code liveness().peakBytes()}), or null
     * @param claimedTime the step the dump labels as its peak, or -1
     */
    public record Peak(int time, int steps, Long claimed, Long recomputed, int claimedTime) {}

    /** A summary measure on both sides; null where a side has no such figure. */
    public record SummaryRow(String measure, Long before, Long after) {
        public Long change() { return before == null || after == null ? null : after - before; }
        /** Change as a fraction of {@code before}; null when undefined. */
        public Double changeFraction() {
            Long c = change();
            return c == null || before == 0 ? null : (double) c / before;
        }
        public boolean same() { return Objects.equals(before, after); }
    }

    /** Bytes live at peak of one group on both sides, with how many values make them up. */
    public record GroupChange(String group, long before, long after, int valuesBefore, int valuesAfter) {
        public long change() { return after - before; }
    }

    public enum Where {
        BEFORE, AFTER;
        public String text() { return this == BEFORE ? "only before" : "only after"; }
    }

    /**
     * {@code count} values of one key that found no partner on the other side.
     *
     * @param bytesEach logical size of one value (all share the shape)
     * @param names     their names on their side, in schedule order
     */
    public record Unmatched(Where where, MatchKey key, int count, long bytesEach, List<String> names) {
        public Unmatched {
            names = List.copyOf(names);
        }
        public long bytes() { return bytesEach * count; }
    }

    /**
     * An "only before" and an "only after" row with the same shape, role, source and count whose
     * op_names end in the same primitive ({@code .../dot_general}): likely the same values under a
     * new framework context, as when {@code jax.checkpoint} renames a backward pass. A hint only.
     */
    public record Renamed(Unmatched before, Unmatched after) {}

    /** True when no difference was found: every summary measure equal, nothing changed or unmatched. */
    public boolean identical() {
        return summary.stream().allMatch(SummaryRow::same) && byOpName.isEmpty() && bySource.isEmpty()
                && unmatched.isEmpty();
    }

    /** Change of the peak's occupied bytes; 0 when a side has no live ranges (see {@link #peakKnown()}). */
    public long peakChange() {
        return peakKnown() ? peakAfter.recomputed() - peakBefore.recomputed() : 0;
    }

    /** Both sides have a peak (live ranges to recompute it from). */
    public boolean peakKnown() {
        return peakBefore.recomputed() != null && peakAfter.recomputed() != null;
    }
}
