package bufq.analysis.map;

import bufq.units.Units;
import bufq.format.chart.BarChart;
import bufq.format.chart.Labels;
import bufq.model.BufferAllocation;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.HloModule;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code map allocation N}: how the values of one allocation share its bytes over time. Offset runs
 * down (0 at the top), program steps run right; each value is a block of its offset range by its live
 * range. Free cells show {@code ·}, so holes and reuse are visible. Values without a live range are
 * drawn over the whole span and flagged in the legend.
 */
final class MapChart {
    static final int MAX_ROWS = 24;
    private static final char[] SHADES = {'█', '▓', '▒', '░'};
    private static final String KEYS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private MapChart() {}

    /** One value placed in the picture. */
    record Block(HloValue value, String key, int start, int end, boolean spanned) {}

    /** Values of the allocation ordered by start, then offset; unranged values span [0, steps-1]. */
    static List<Block> blocks(HloModule m, BufferAllocation a) {
        int last = Math.max(0, m.steps() - 1);
        List<HloValue> vs = new ArrayList<>(m.valuesIn(a.index()));
        vs.sort(Comparator.comparingInt((HloValue v) -> v.range() == null ? -1 : v.range().start())
                .thenComparingLong(HloValue::offset).thenComparingLong(HloValue::id));
        List<Block> out = new ArrayList<>(vs.size());
        for (int i = 0; i < vs.size(); i++) {
            HloValue v = vs.get(i);
            LiveRange r = v.range();
            String key = key(i);
            if (r == null) out.add(new Block(v, key, 0, last, true));
            else out.add(new Block(v, key, Math.max(0, Math.min(r.start(), last)), Math.max(0, Math.min(r.end(), last)), false));
        }
        return out;
    }

    /** The key of the {@code i}-th value: A..Z, a..z, 0..9, then two characters (AA, AB, ...), so keys never run out. */
    static String key(int i) {
        int n = KEYS.length();
        StringBuilder b = new StringBuilder();
        for (int k = i; ; k = k / n - 1) {
            b.insert(0, KEYS.charAt(k % n));
            if (k < n) break;
        }
        return b.toString();
    }

    static BufferAllocation require(HloModule m, int allocation) {
        BufferAllocation a = m.allocation(allocation);
        if (a == null) throw new IllegalArgumentException("no allocation " + allocation + " in " + m.handle()
                + " (allocations 0.." + (m.allocations().size() - 1) + ")");
        return a;
    }

    static List<Output> run(HloModule m, int allocation, int width) {
        BufferAllocation a = require(m, allocation);
        List<Block> blocks = blocks(m, a);
        boolean[] shown = new boolean[blocks.size()];
        List<Output> out = new ArrayList<>();
        out.add(new TextBlock(render(m, a, blocks, width, shown)));
        out.add(legend(a, blocks, shown));
        return out;
    }

    /** Offsets as offsets: the exact byte, as the dump and the legend print them (a size would round). */
    static String offset(long bytes) {
        return Long.toString(bytes);
    }

    /** The picture; {@code shown[i]} is set for each value with at least one visible cell. */
    static String render(HloModule m, BufferAllocation a, List<Block> blocks, int width, boolean[] shown) {
        StringBuilder o = new StringBuilder();
        o.append("allocation ").append(a.index()).append(" (").append(a.kind()).append(", ").append(Units.human(a.size()))
                .append(a.color() != 0 ? ", color " + a.color() : "").append("): ").append(blocks.size())
                .append(blocks.size() == 1 ? " value" : " values").append(", offset down, step right\n");
        if (blocks.isEmpty() || a.size() <= 0) return o.append("(no values to draw)\n").toString();
        int steps = Math.max(1, m.steps());
        long[] rows = rowStarts(a, blocks);
        int nrows = rows.length - 1;
        boolean exact = distinctRanges(a, blocks) <= MAX_ROWS;
        String[] ylab = new String[nrows];
        int lw = offset(a.size()).length();
        for (int r = 0; r < nrows; r++) {
            if (!exact && r % 4 != 0) continue;
            ylab[r] = offset(rows[r]);
            lw = Math.max(lw, ylab[r].length());
        }
        int plot = Math.max(8, width - lw - 2);
        int stretch = steps <= plot ? plot / steps : 1;
        int bucket = steps <= plot ? 1 : (steps + plot - 1) / plot;
        int cols = steps <= plot ? steps * stretch : (steps + bucket - 1) / bucket;
        int[][] owner = new int[nrows][cols];
        for (int[] row : owner) Arrays.fill(row, -1);
        for (int i = 0; i < blocks.size(); i++) {
            Block b = blocks.get(i);
            int r0 = row(rows, b.value().offset());
            int r1 = row(rows, b.value().offset() + Math.max(1, b.value().size()) - 1);
            for (int r = r0; r <= r1; r++)
                for (int c = b.start() / bucket * stretch; c < (b.end() / bucket + 1) * stretch && c < cols; c++)
                    owner[r][c] = i;
        }
        char[][] grid = new char[nrows][cols];
        for (int r = 0; r < nrows; r++)
            for (int c = 0; c < cols; c++) grid[r][c] = owner[r][c] < 0 ? '·' : SHADES[owner[r][c] % SHADES.length];
        // Label each block at its first visible cell (one pass over the grid): the whole name when
        // the run of cells there holds it, else its key.
        for (int r = 0; r < nrows; r++) {
            for (int c = 0; c < cols; c++) {
                int i = owner[r][c];
                if (i < 0 || shown[i]) continue;
                shown[i] = true;
                int run = 0;
                while (c + run < cols && owner[r][c + run] == i) run++;
                String name = blocks.get(i).value().label();
                String text = run >= name.length() + 2 ? name : blocks.get(i).key();
                for (int k = 0; k < text.length() && k < run; k++) grid[r][c + k] = text.charAt(k);
            }
        }
        for (int r = 0; r < nrows; r++) {
            String l = ylab[r] == null ? "" : ylab[r];
            o.append(" ".repeat(lw - l.length())).append(l).append(' ').append(ylab[r] == null ? '│' : '┤')
                    .append(grid[r]).append('\n');
        }
        char[] axis = new char[cols];
        Arrays.fill(axis, '─');
        Labels labels = new Labels(plot);
        for (int c : Labels.marks(cols, 0, stretch)) {
            int t = c == cols - 1 ? steps - 1 : c / stretch * bucket;
            if (labels.place(Integer.toString(t), c)) axis[c] = '┬';
        }
        o.append(" ".repeat(lw - offset(a.size()).length())).append(offset(a.size())).append(" └")
                .append(axis).append('\n');
        o.append(BarChart.stripEnd(new StringBuilder(" ".repeat(lw + 2)).append(labels.text()))).append('\n');
        if (bucket > 1) o.append("1 column = ").append(bucket).append(" steps; ");
        o.append(exact ? "1 row per distinct byte range (rows not to scale)" : "1 row = " + Units.human(rows[1] - rows[0]) + ", later values hide earlier ones sharing a cell")
                .append("; · free");
        if (blocks.stream().anyMatch(Block::spanned)) o.append("; values without a live range span the whole width");
        return o.append('\n').toString();
    }

    /**
     * Row boundaries: one row per byte range between consecutive value offsets/ends when there are
     * few enough, so every value gets its own rows; otherwise {@link #MAX_ROWS} equal rows.
     */
    static long[] rowStarts(BufferAllocation a, List<Block> blocks) {
        TreeSet<Long> cuts = cuts(a, blocks);
        if (cuts.size() - 1 <= MAX_ROWS) return cuts.stream().mapToLong(Long::longValue).toArray();
        long[] r = new long[MAX_ROWS + 1];
        for (int i = 0; i <= MAX_ROWS; i++) r[i] = a.size() * i / MAX_ROWS;
        return r;
    }

    static int distinctRanges(BufferAllocation a, List<Block> blocks) { return cuts(a, blocks).size() - 1; }

    private static TreeSet<Long> cuts(BufferAllocation a, List<Block> blocks) {
        TreeSet<Long> cuts = new TreeSet<>();
        cuts.add(0L);
        cuts.add(a.size());
        for (Block b : blocks) {
            long s = b.value().offset(), e = b.value().offset() + b.value().size();
            if (s >= 0 && s <= a.size()) cuts.add(s);
            if (e >= 0 && e <= a.size()) cuts.add(e);
        }
        return cuts;
    }

    /** The row holding byte {@code offset}. */
    static int row(long[] rows, long offset) {
        int i = Arrays.binarySearch(rows, offset);
        int r = i >= 0 ? i : -i - 2;
        return Math.max(0, Math.min(rows.length - 2, r));
    }

    /**
     * Every value the picture shows, by key: offsets and ends as exact byte positions (not sizes).
     * Values wholly hidden under later ones are counted in a note, not listed.
     */
    static Table legend(BufferAllocation a, List<Block> blocks, boolean[] shown) {
        Table.Builder b = Table.builder().key("values_in_allocation").title("values in allocation " + a.index())
                .column("key", ColumnType.STRING).column("value", ColumnType.STRING)
                .column("offset", ColumnType.INT).column("size", ColumnType.BYTES).column("end", ColumnType.INT)
                .column("live", ColumnType.STRING).column("shape", ColumnType.STRING);
        int hidden = 0;
        for (int i = 0; i < blocks.size(); i++) {
            Block k = blocks.get(i);
            if (!shown[i]) {
                hidden++;
                continue;
            }
            HloValue v = k.value();
            b.row(k.key(), v.label(), v.offset(), v.size(), v.offset() + v.size(),
                    v.range() == null ? "none (drawn over the whole span)" : v.range().toString(), v.shape().text());
        }
        if (hidden > 0) b.note(hidden + " value" + (hidden == 1 ? "" : "s") + " hidden under later ones sharing their cells"
                + " (values where allocation = " + a.index() + " lists all)");
        return b.build();
    }
}
