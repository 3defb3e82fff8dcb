package bufq.analysis.timeline;

import bufq.analysis.liveness.Steps;
import bufq.units.Units;
import bufq.format.chart.BarChart;
import bufq.format.chart.Labels;
import bufq.model.HloModule;
import bufq.model.MemorySpace;
import bufq.analysis.liveness.Liveness;
import bufq.table.Column;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeSet;

/**
 * {@code timeline}: occupied bytes per step (see {@code Liveness}) as a terminal bar chart in Unicode eighth blocks,
 * scaled to a width. With more steps than columns each column shows the maximum of its bucket of
 * steps, so the peak is never averaged away.
 */
final class TimelineChart {
    static final int HEIGHT = BarChart.HEIGHT;
    private static final int NAME_MAX = 18;

    private TimelineChart() {}

    static List<Output> run(HloModule m, OptionalInt color, int width) {
        Liveness l = Liveness.of(m);
        if (l.peakTime() < 0) return List.of(new TextBlock(
                "no live ranges in this dump: a timeline needs the HloLiveRange section\n"));
        if (l.peakTime(color) < 0) return List.of(new TextBlock(Steps.noPeakOfColor(color.getAsInt())));
        return List.of(new TextBlock(render(m, l.occupiedBytesByStep(color), l.peakTime(color), color, width),
                table(m, color)));
    }

    /** {@link Timeline#table}, the colour already checked. */
    static Table table(HloModule m, OptionalInt color) {
        Liveness l = Liveness.of(m);
        List<Integer> colors = color.isPresent() || l.colors().size() < 2 ? List.of() : l.colors();
        long[] occupied = l.occupiedBytesByStep(color), live = l.liveBytesByStep(color);
        List<long[]> per = new ArrayList<>();
        for (int c : colors) per.add(l.occupiedBytesByStep(OptionalInt.of(c)));
        List<Column> columns = new ArrayList<>(List.of(new Column("step", ColumnType.INT),
                new Column("instruction", ColumnType.STRING), new Column("occupied_bytes", ColumnType.BYTES),
                new Column("live_bytes", ColumnType.BYTES)));
        // occupied_bytes is the device memory's (color 0); each space's own column beside it
        for (int c : colors) columns.add(new Column("color_" + c, ColumnType.BYTES));
        int p = l.peakTime(color);
        List<String> notes = p < 0 ? List.of() : List.of("peak: step " + p + " (" + Units.human(occupied[p]) + " occupied)");
        // Rows when read: the chart carries this table for csv and json, and a million-step schedule
        // shown as a chart never reads it.
        return Table.lazy("occupied bytes by step (" + m.handle() + ")", "occupied_bytes_by_step", columns, l.steps(), t -> {
            Object[] row = new Object[4 + per.size()];
            row[0] = (long) t;
            row[1] = Steps.instructionAt(m, t);
            row[2] = occupied[t];
            row[3] = live[t];
            for (int i = 0; i < per.size(); i++) row[4 + i] = per.get(i)[t];
            return row;
        }, notes);
    }

    /** The chart of {@code bytes} per step with the peak, step {@code peakT}, marked. */
    static String render(HloModule m, long[] bytes, int peakT, OptionalInt color, int width) {
        int steps = bytes.length;
        long max = bytes[peakT];
        String[] ylabels = new String[HEIGHT + 1];
        ylabels[0] = Units.human(max);
        ylabels[HEIGHT / 2] = Units.human(max / 2);
        ylabels[HEIGHT] = "0";
        int lw = BarChart.labelWidth(ylabels);
        int plot = Math.max(8, width - lw - 2);
        BarChart.Layout layout = BarChart.Layout.of(bytes, plot, true);
        int stretch = layout.stretch(), bucket = layout.bucket(), cols = layout.columns().length;
        int peakC = layout.column(peakT);
        StringBuilder out = new StringBuilder();
        int space = Steps.spaceFilter(m, color);
        out.append("occupied bytes, ").append(space >= 0 ? "color " + space + (MemorySpace.several(m) ? " (" + MemorySpace.name(m, space) + ")" : "")
                        : "all colors")
                .append(": peak ").append(Units.human(max)).append(" at step ").append(peakT)
                .append(" (").append(Objects.requireNonNullElse(Steps.instructionAt(m, peakT), "?")).append(")");
        if (bucket > 1) out.append("; 1 column = ").append(bucket).append(" steps, max shown");
        out.append('\n');
        BarChart.bars(out, layout.columns(), max, ylabels, lw);
        int[] marks = Labels.marks(cols, peakC, stretch);
        BarChart.axis(out, lw, cols, marks, peakC);
        String pad = " ".repeat(lw + 2);
        Labels steps_ = new Labels(plot), names = new Labels(plot);
        // The peak is placed first so it always gets its label.
        steps_.place("peak " + peakT, peakC);
        names.place(name(m, peakT), peakC);
        for (int c : marks) {
            if (c == peakC) continue;
            int t = c == cols - 1 ? steps - 1 : c / stretch * bucket;
            if (steps_.place(Integer.toString(t), c)) names.place(name(m, t), c);
        }
        out.append(BarChart.stripEnd(new StringBuilder(pad).append(steps_.text()))).append('\n');
        out.append(BarChart.stripEnd(new StringBuilder(pad).append(names.text()))).append('\n');
        return out.toString();
    }

    static String name(HloModule m, int t) {
        String n = Steps.instructionAt(m, t);
        if (n == null) return "?";
        return n.length() <= NAME_MAX ? n : n.substring(0, NAME_MAX - 1) + "…";
    }
}
