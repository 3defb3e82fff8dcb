package bufq.analysis;

import bufq.model.HeapEvent;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.Liveness;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code timeline by events}: the heap-simulator trace's bytes after each event, the x-axis XProf's
 * memory viewer uses, then the trace's own peak beside bufq's per-step peak, with what makes them
 * differ: the trace covers only the allocations it simulated (temporaries; not parameters,
 * constants or outputs), counts assigned sizes with shared bytes once, and steps between events
 * rather than between instructions.
 */
final class EventTimeline {
    private static final char[] BLOCKS = {'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'};
    private static final int HEIGHT = 8;

    private EventTimeline() {}

    static List<Output> run(HloModule m, int width) {
        List<HeapEvent> events = m.heapEvents();
        if (events.isEmpty()) {
            return List.of(new TextBlock("no heap-simulator trace in this module: 'timeline by events' needs a proto dump "
                    + "(.hlo.pb or a profile's .xplane.pb) whose buffer assignment carries one\n"));
        }
        int n = events.size();
        int peak = 0;
        for (int i = 1; i < n; i++) if (events.get(i).heapBytes() > events.get(peak).heapBytes()) peak = i;
        long max = events.get(peak).heapBytes();
        List<Output> out = new ArrayList<>();
        out.add(new TextBlock(chart(events, peak, max, width)));
        out.add(comparison(m, events, peak));
        return out;
    }

    private static String chart(List<HeapEvent> events, int peak, long max, int width) {
        int n = events.size();
        String top = Bytes.human(max);
        int lw = Math.max(top.length(), 1);
        int plot = Math.max(8, width - lw - 2);
        int bucket = (n + plot - 1) / plot;
        int cols = (n + bucket - 1) / bucket;
        long[] col = new long[cols];
        for (int i = 0; i < n; i++) col[i / bucket] = Math.max(col[i / bucket], events.get(i).heapBytes());
        StringBuilder b = new StringBuilder("heap bytes after each heap-simulator event: peak ").append(top)
                .append(" at event ").append(peak).append(" (").append(events.get(peak).kind()).append(' ')
                .append(events.get(peak).instruction()).append(')');
        if (bucket > 1) b.append("; 1 column = ").append(bucket).append(" events, max shown");
        b.append('\n');
        for (int r = 0; r < HEIGHT; r++) {
            String label = r == 0 ? top : "";
            b.append(" ".repeat(lw - label.length())).append(label).append(' ').append(r == 0 ? '┤' : '│');
            StringBuilder line = new StringBuilder();
            int base = (HEIGHT - 1 - r) * 8;
            for (long v : col) {
                int e = v <= 0 || max <= 0 ? 0 : Math.max(1, (int) Math.round((double) v / max * HEIGHT * 8));
                int fill = Math.max(0, Math.min(8, e - base));
                line.append(fill == 0 ? ' ' : BLOCKS[fill - 1]);
            }
            int end = line.length();
            while (end > 0 && line.charAt(end - 1) == ' ') end--;
            b.append(line, 0, end).append('\n');
        }
        char[] axis = new char[cols];
        java.util.Arrays.fill(axis, '─');
        axis[peak / bucket] = '▲';
        b.append(" ".repeat(lw - 1)).append("0 └").append(axis).append('\n');
        String last = Integer.toString(n - 1);
        StringBuilder labels = new StringBuilder(" ".repeat(lw + 2)).append('0');
        int peakCol = peak / bucket;
        String p = "peak " + peak;
        int at = lw + 2 + peakCol;
        if (at > labels.length() + 1) labels.append(" ".repeat(at - labels.length())).append(p);
        int lastAt = lw + 2 + cols - last.length();
        if (lastAt > labels.length() + 1) labels.append(" ".repeat(lastAt - labels.length())).append(last);
        b.append(labels).append('\n');
        return b.toString();
    }

    /** The trace's peak beside bufq's per-step peak, split by what the trace covers. */
    private static Table comparison(HloModule m, List<HeapEvent> events, int peak) {
        Set<Integer> traced = new HashSet<>();
        for (HeapEvent e : events) if (e.allocation() >= 0) traced.add(e.allocation());
        Liveness l = m.liveness();
        int t = l.peakTime();
        HeapEvent pe = events.get(peak);
        Table.Builder b = Table.builder().title("the trace's peak and bufq's per-step peak")
                .column("measure", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("at", ColumnType.STRING);
        b.row("heap-simulator trace peak", pe.heapBytes(), "event " + peak + " (" + pe.kind() + " " + pe.instruction() + ")");
        if (t < 0) {
            b.note("no live ranges: bufq has no per-step peak to compare");
            return b.build();
        }
        // Each value's share of the bytes its allocation holds then, so the two parts add up to the peak.
        List<HloValue> live = m.liveAt(t);
        long[] shares = OccupiedShares.of(live);
        long inTraced = 0, outside = 0;
        for (int i = 0; i < live.size(); i++) {
            if (traced.contains(live.get(i).allocation())) inTraced += shares[i];
            else outside += shares[i];
        }
        String step = "step " + t + " (" + PeakReport.instructionAt(m, t) + ")";
        b.row("bufq's peak (occupied bytes)", l.peakBytes(), step);
        b.row("  of it in the traced allocation" + (traced.size() == 1 ? "" : "s") + " " + traced, inTraced, step);
        b.row("  of it outside the trace (parameters, constants, outputs, thread-local)", outside, step);
        b.note("the trace simulates only allocation" + (traced.size() == 1 ? " " : "s ") + traced
                + ": values elsewhere never appear in it, so its peak leaves out " + Bytes.human(outside)
                + " live at bufq's peak step");
        long gap = Math.abs(pe.heapBytes() - inTraced);
        if (gap == 0) b.note("inside the trace the two agree: the trace's peak is what bufq counts there at step " + t);
        else b.note("inside the trace the two differ by " + Bytes.human(gap)
                + ": the trace peaks between events, where a step counts every value whose inclusive live range covers it");
        return b.build();
    }
}
