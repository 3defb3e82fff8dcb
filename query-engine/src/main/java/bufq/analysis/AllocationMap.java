package bufq.analysis;

import bufq.model.BufferAllocation;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.Module;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * {@code map allocation N}: how the values of one allocation share its bytes over time. Offset runs
 * down (0 at the top), program steps run right; each value is a block of its offset range by its live
 * range. Free cells show {@code ·}, so holes and reuse are visible. Values without a live range are
 * drawn over the whole span and flagged in the legend.
 */
final class AllocationMap {
    static final int ROWS = 16;
    private static final char[] SHADES = {'█', '▓', '▒', '░'};
    private static final String KEYS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private AllocationMap() {}

    /** One value placed in the picture. */
    record Block(HloValue value, String key, int start, int end, boolean spanned) {}

    /** Values of the allocation ordered by start, then offset; unranged values span [0, steps-1]. */
    static List<Block> blocks(Module m, BufferAllocation a) {
        int last = Math.max(0, m.steps() - 1);
        List<HloValue> vs = new ArrayList<>(m.valuesIn(a.index()));
        vs.sort(Comparator.comparingInt((HloValue v) -> v.range() == null ? -1 : v.range().start())
                .thenComparingLong(HloValue::offset).thenComparingLong(HloValue::id));
        List<Block> out = new ArrayList<>(vs.size());
        for (int i = 0; i < vs.size(); i++) {
            HloValue v = vs.get(i);
            LiveRange r = v.range();
            String key = i < KEYS.length() ? String.valueOf(KEYS.charAt(i)) : "?";
            if (r == null) out.add(new Block(v, key, 0, last, true));
            else out.add(new Block(v, key, Math.max(0, Math.min(r.start(), last)), Math.max(0, Math.min(r.end(), last)), false));
        }
        return out;
    }

    static BufferAllocation require(Module m, int allocation) {
        BufferAllocation a = m.allocation(allocation);
        if (a == null) throw new IllegalArgumentException("no allocation " + allocation + " in " + m.handle()
                + " (allocations 0.." + (m.allocations().size() - 1) + ")");
        return a;
    }

    static List<Output> run(Module m, int allocation, int width) {
        BufferAllocation a = require(m, allocation);
        List<Block> blocks = blocks(m, a);
        List<Output> out = new ArrayList<>();
        out.add(new TextBlock(render(m, a, blocks, width)));
        out.add(legend(a, blocks));
        return out;
    }

    static String render(Module m, BufferAllocation a, List<Block> blocks, int width) {
        StringBuilder o = new StringBuilder();
        o.append("allocation ").append(a.index()).append(" (").append(a.kind()).append(", ").append(Bytes.human(a.size()))
                .append(a.color() != 0 ? ", color " + a.color() : "").append("): ").append(blocks.size())
                .append(blocks.size() == 1 ? " value" : " values").append(", offset down, step right\n");
        if (blocks.isEmpty() || a.size() <= 0) return o.append("(no values to draw)\n").toString();
        int steps = Math.max(1, m.steps());
        String[] ylab = new String[ROWS];
        int lw = 1;
        for (int r = 0; r < ROWS; r += 4) {
            ylab[r] = Bytes.human(rowStart(r, a.size()));
            lw = Math.max(lw, ylab[r].length());
        }
        int plot = Math.max(8, width - lw - 2);
        int bucket = steps <= plot ? 1 : (steps + plot - 1) / plot;
        int cols = (steps + bucket - 1) / bucket;
        int[][] owner = new int[ROWS][cols];
        for (int[] row : owner) Arrays.fill(row, -1);
        for (int i = 0; i < blocks.size(); i++) {
            Block b = blocks.get(i);
            int r0 = row(b.value().offset(), a.size());
            int r1 = row(b.value().offset() + Math.max(1, b.value().size()) - 1, a.size());
            for (int r = Math.max(0, r0); r <= Math.min(ROWS - 1, r1); r++)
                for (int c = b.start() / bucket; c <= b.end() / bucket && c < cols; c++) owner[r][c] = i;
        }
        char[][] grid = new char[ROWS][cols];
        for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < cols; c++) grid[r][c] = owner[r][c] < 0 ? '·' : SHADES[owner[r][c] % SHADES.length];
        // Label each block at its first visible cell: the whole name when the run of cells holds it.
        for (int i = 0; i < blocks.size(); i++) {
            label:
            for (int r = 0; r < ROWS; r++) {
                for (int c = 0; c < cols; c++) {
                    if (owner[r][c] != i) continue;
                    int run = 0;
                    while (c + run < cols && owner[r][c + run] == i) run++;
                    String name = blocks.get(i).value().label();
                    String text = run >= name.length() + 2 ? name : blocks.get(i).key();
                    for (int k = 0; k < text.length() && k < run; k++) grid[r][c + k] = text.charAt(k);
                    break label;
                }
            }
        }
        for (int r = 0; r < ROWS; r++) {
            String l = ylab[r] == null ? "" : ylab[r];
            o.append(" ".repeat(lw - l.length())).append(l).append(' ').append(ylab[r] == null ? '│' : '┤')
                    .append(grid[r]).append('\n');
        }
        char[] axis = new char[cols];
        Arrays.fill(axis, '─');
        TimelineChart.Labels labels = new TimelineChart.Labels(plot);
        for (int c : TimelineChart.marks(cols, 0)) {
            int t = c == cols - 1 ? steps - 1 : c * bucket;
            if (labels.place(Integer.toString(t), c)) axis[c] = '┬';
        }
        o.append(" ".repeat(lw - Bytes.human(a.size()).length())).append(Bytes.human(a.size())).append(" └")
                .append(axis).append('\n');
        o.append(TimelineChart.stripEnd(new StringBuilder(" ".repeat(lw + 2)).append(labels.text()))).append('\n');
        if (bucket > 1) o.append("1 column = ").append(bucket).append(" steps; ");
        o.append("1 row = ").append(Bytes.human((a.size() + ROWS - 1) / ROWS)).append("; · free");
        if (blocks.stream().anyMatch(Block::spanned)) o.append("; values without a live range span the whole width");
        return o.append('\n').toString();
    }

    static long rowStart(int r, long size) { return size * r / ROWS; }

    static int row(long offset, long size) {
        if (size <= 0) return 0;
        return (int) Math.min(ROWS - 1, Math.max(0, Math.floorDiv(offset * ROWS, size)));
    }

    static Table legend(BufferAllocation a, List<Block> blocks) {
        Table.Builder b = Table.builder().title("values in allocation " + a.index())
                .column("key", ColumnType.STRING).column("value", ColumnType.STRING)
                .column("offset", ColumnType.BYTES).column("size", ColumnType.BYTES).column("end", ColumnType.BYTES)
                .column("live", ColumnType.STRING).column("shape", ColumnType.STRING);
        for (Block k : blocks) {
            HloValue v = k.value();
            b.row(k.key(), v.label(), v.offset(), v.size(), v.offset() + v.size(),
                    v.range() == null ? "none (drawn over the whole span)" : v.range().toString(), v.shape().text());
        }
        return b.build();
    }
}
