package bufq.format.chart;

import java.util.Arrays;

/**
 * The one terminal bar chart: a series of byte counts drawn {@value #HEIGHT} rows high in Unicode
 * eighth blocks over an axis with the peak marked. {@code timeline} draws occupied bytes per step
 * with it, {@code timeline by events} heap bytes per heap-simulator event.
 */
public final class BarChart {
    /** Widest chart drawn, in columns: a wider request is drawn this wide (a chart is text held in memory). */
    public static final int MAX_WIDTH = 10_000;
    public static final int HEIGHT = 8;
    private static final char[] BLOCKS = {'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'};

    private BarChart() {}

    /**
     * How a series fills {@code plot} columns: when it has more values than columns each column
     * shows the maximum of {@code bucket} values (so a peak is never averaged away); when fewer and
     * {@code stretch} is allowed, each value takes {@code stretch} columns.
     */
    public record Layout(int stretch, int bucket, long[] columns) {
        public static Layout of(long[] values, int plot, boolean stretchFew) {
            int n = values.length;
            int stretch = stretchFew && n <= plot ? plot / n : 1;
            int bucket = n <= plot ? 1 : (n + plot - 1) / plot;
            int cols = n <= plot ? n * stretch : (n + bucket - 1) / bucket;
            long[] col = new long[cols];
            for (int c = 0; c < cols; c++) {
                int from = c / stretch * bucket, to = Math.min(n, from + bucket);
                for (int t = from; t < to; t++) col[c] = Math.max(col[c], values[t]);
            }
            return new Layout(stretch, bucket, col);
        }

        /** The column that shows value {@code i} (the middle one of a stretched value). */
        public int column(int i) { return i / bucket * stretch + stretch / 2; }
    }

    /** Width of the widest of the y-axis labels (nulls are rows without one). */
    public static int labelWidth(String[] ylabels) {
        int lw = 0;
        for (String s : ylabels) if (s != null) lw = Math.max(lw, s.length());
        return lw;
    }

    /**
     * The {@value #HEIGHT} rows of bars, top first: row {@code r} labelled {@code ylabels[r]} (a tick
     * when labelled), bars scaled so that {@code max} fills the chart; trailing spaces cut.
     */
    public static void bars(StringBuilder out, long[] columns, long max, String[] ylabels, int lw) {
        for (int r = 0; r < HEIGHT; r++) {
            String label = ylabels[r] == null ? "" : ylabels[r];
            out.append(" ".repeat(lw - label.length())).append(label).append(' ')
                    .append(ylabels[r] == null ? '│' : '┤');
            StringBuilder line = new StringBuilder();
            int base = (HEIGHT - 1 - r) * 8;
            for (long v : columns) {
                int fill = Math.max(0, Math.min(8, eighths(v, max) - base));
                line.append(fill == 0 ? ' ' : BLOCKS[fill - 1]);
            }
            out.append(stripEnd(line)).append('\n');
        }
    }

    /** The x axis: {@code ┬} at each of {@code marks}, {@code ▲} at the peak's column. */
    public static void axis(StringBuilder out, int lw, int cols, int[] marks, int peakColumn) {
        char[] axis = new char[cols];
        Arrays.fill(axis, '─');
        for (int c : marks) axis[c] = '┬';
        axis[peakColumn] = '▲';
        out.append(" ".repeat(lw - 1)).append("0 └").append(axis).append('\n');
    }

    /** Height of a column in eighths of a row; any non-zero value shows at least one eighth. */
    public static int eighths(long v, long max) {
        if (v <= 0 || max <= 0) return 0;
        int e = (int) Math.round((double) v / max * HEIGHT * 8);
        return Math.max(1, e);
    }

    public static String stripEnd(StringBuilder b) {
        int e = b.length();
        while (e > 0 && b.charAt(e - 1) == ' ') e--;
        return b.substring(0, e);
    }
}
