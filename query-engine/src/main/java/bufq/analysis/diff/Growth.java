package bufq.analysis.diff;

import bufq.model.ProgramSizes;
import bufq.model.HloModule;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.util.List;
import java.util.Locale;

/**
 * How a program's {@link ProgramSizes#needsBytes} changed between two builds, for {@code diff
 * --fail-over PCT}: a CI guard against a compile-memory regression.
 */
public record Growth(String before, String after, long beforeBytes, long afterBytes) {
    public static Growth of(HloModule before, HloModule after) {
        return new Growth(before.handle(), after.handle(), ProgramSizes.of(before).needsBytes(), ProgramSizes.of(after).needsBytes());
    }

    /** The change in percent of the before figure; 0 when either is unknown, infinite from 0 to more. */
    public double percent() {
        if (beforeBytes < 0 || afterBytes < 0) return 0;
        if (beforeBytes == 0) return afterBytes == 0 ? 0 : Double.POSITIVE_INFINITY;
        return 100.0 * (afterBytes - beforeBytes) / beforeBytes;
    }

    public boolean over(double limitPercent) { return percent() > limitPercent; }

    /** One line for a CI log. */
    public String failure(double limitPercent) {
        return String.format(Locale.ROOT, "%s needs %d B after, %d B before: %+.1f%%, more than the %s%% allowed (--fail-over)",
                after, afterBytes, beforeBytes, percent(), trim(limitPercent));
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    public static Table table(List<Growth> rows, double limitPercent) {
        Table.Builder b = Table.builder().key("needs_bytes").title("needs_bytes (--fail-over " + trim(limitPercent) + "%)")
                .column("before", ColumnType.STRING).column("after", ColumnType.STRING)
                .column("before_bytes", ColumnType.BYTES).column("after_bytes", ColumnType.BYTES)
                .column("change", ColumnType.FLOAT).column("over", ColumnType.BOOL);
        for (Growth g : rows)
            b.row(g.before(), g.after(), g.beforeBytes() < 0 ? null : g.beforeBytes(), g.afterBytes() < 0 ? null : g.afterBytes(),
                    Math.round(g.percent() * 10) / 10.0, g.over(limitPercent));
        return b.build();
    }
}
