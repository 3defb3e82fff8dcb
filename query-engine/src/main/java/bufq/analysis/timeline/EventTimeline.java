package bufq.analysis.timeline;

import bufq.analysis.liveness.Steps;
import bufq.units.Units;
import bufq.analysis.liveness.OccupiedShares;
import bufq.format.chart.BarChart;
import bufq.analysis.liveness.LiveValues;
import bufq.model.HeapEvent;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.liveness.Liveness;
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
        String top = Units.human(max);
        String[] ylabels = new String[BarChart.HEIGHT + 1];
        ylabels[0] = top;
        ylabels[BarChart.HEIGHT] = "0";
        int lw = BarChart.labelWidth(ylabels);
        int plot = Math.max(8, width - lw - 2);
        long[] heap = new long[n];
        for (int i = 0; i < n; i++) heap[i] = events.get(i).heapBytes();
        BarChart.Layout layout = BarChart.Layout.of(heap, plot, false);
        int bucket = layout.bucket(), cols = layout.columns().length;
        StringBuilder b = new StringBuilder("heap bytes after each heap-simulator event: peak ").append(top)
                .append(" at event ").append(peak).append(" (").append(events.get(peak).kind()).append(' ')
                .append(events.get(peak).instruction()).append(')');
        if (bucket > 1) b.append("; 1 column = ").append(bucket).append(" events, max shown");
        b.append('\n');
        BarChart.bars(b, layout.columns(), max, ylabels, lw);
        BarChart.axis(b, lw, cols, new int[0], layout.column(peak));
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
        Liveness l = Liveness.of(m);
        int t = l.peakTime();
        HeapEvent pe = events.get(peak);
        Table.Builder b = Table.builder().key("the_trace_s_peak_and_bufq_s_per_step_peak").title("the trace's peak and bufq's per-step peak")
                .column("measure", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("at", ColumnType.STRING);
        b.row("heap-simulator trace peak", pe.heapBytes(), "event " + peak + " (" + pe.kind() + " " + pe.instruction() + ")");
        if (t < 0) {
            b.note("no live ranges: bufq has no per-step peak to compare");
            return b.build();
        }
        long inTraced = tracedBytes(m, traced, t), outside = l.peakBytes() - inTraced;
        String step = "step " + t + " (" + Steps.instructionAt(m, t) + ")";
        String allocs = "allocation" + (traced.size() == 1 ? " " : "s ") + traced;
        b.row("bufq's peak (occupied bytes)", l.peakBytes(), step);
        b.row("  of it in the traced " + allocs, inTraced, step);
        b.row("  of it outside the trace (parameters, constants, outputs, thread-local)", outside, step);
        // Where the trace peaks (the step of its peak event's instruction) and where bufq counts most
        // in the traced allocations: the trace's peak is to be compared there, not at bufq's peak step.
        Integer traceStep = m.timeOf(pe.instruction());
        long atTraceStep = traceStep == null ? -1 : tracedBytes(m, traced, traceStep);
        int mostStep = -1;
        long most = -1;
        for (int s = 0; s < l.steps(); s++) {
            long x = tracedBytes(m, traced, s);
            if (x > most) { most = x; mostStep = s; }
        }
        if (traceStep != null && traceStep != t) {
            b.row("bufq in the traced " + allocs + " where the trace peaks", atTraceStep,
                    "step " + traceStep + " (" + Steps.instructionAt(m, traceStep) + ")");
        }
        if (mostStep >= 0 && mostStep != t && (traceStep == null || mostStep != traceStep)) {
            b.row("bufq's most in the traced " + allocs, most, "step " + mostStep + " (" + Steps.instructionAt(m, mostStep) + ")");
        }
        b.note("the trace simulates only " + allocs + ": values elsewhere never appear in it, so its peak leaves out "
                + Units.human(outside) + " live at bufq's peak step");
        String where = traceStep == null ? null : "step " + traceStep;
        if (traceStep != null && atTraceStep == pe.heapBytes()) {
            b.note("inside the trace the two agree: at " + where + ", where the trace peaks, bufq counts the same "
                    + Units.human(atTraceStep) + " in " + allocs);
        } else if (traceStep != null) {
            b.note("inside the trace the two differ by " + Units.human(Math.abs(pe.heapBytes() - atTraceStep)) + " at " + where
                    + ", where the trace peaks (" + Units.human(pe.heapBytes()) + " in the trace, " + Units.human(atTraceStep)
                    + " in bufq): the trace counts between events, a step every value whose inclusive live range covers it");
        } else {
            b.note("the trace's peak event (" + pe.instruction() + ") is not in the schedule: bufq's most in " + allocs + " is "
                    + Units.human(most) + " at step " + mostStep);
        }
        if (traceStep != null && traceStep != t) {
            b.note("bufq's module-wide peak is at step " + t + ", not " + where + ": there " + allocs + " hold"
                    + (traced.size() == 1 ? "s " : " ") + Units.human(inTraced) + " ("
                    + (inTraced == atTraceStep ? "as at " + where
                        : (inTraced < atTraceStep ? Units.human(atTraceStep - inTraced) + " less" : Units.human(inTraced - atTraceStep) + " more")
                            + " than at " + where)
                    + ") and values outside the trace " + Units.human(outside) + ", which makes the higher total");
        }
        return b.build();
    }

    /** bufq's occupied bytes at step {@code t} in the traced allocations (each value's share, so parts add up). */
    private static long tracedBytes(HloModule m, Set<Integer> traced, int t) {
        List<HloValue> live = LiveValues.at(m, t);
        long[] shares = OccupiedShares.of(live);
        long in = 0;
        for (int i = 0; i < live.size(); i++) if (traced.contains(live.get(i).allocation())) in += shares[i];
        return in;
    }
}
