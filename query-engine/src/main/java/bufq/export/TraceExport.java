package bufq.export;

import bufq.analysis.liveness.Liveness;
import bufq.format.JsonFormatter;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import java.util.PriorityQueue;

/**
 * The module's schedule as a Chrome trace-event JSON file (the JSON Object Format that
 * {@code ui.perfetto.dev} and {@code chrome://tracing} open), one step of the schedule being one
 * microsecond of trace time. Process 1 holds the schedule (a slice per step, named by its
 * instruction), a counter of occupied bytes per colour, and instants at the peak and the dump's
 * label. Each allocation is a process of its own whose threads are lanes: a slice per value over its
 * live range, laid out so that no two slices of a lane overlap (Perfetto does not draw overlapping
 * slices of one thread), with name, shape, size, offset, op_name and source in its args.
 *
 * <p>Written event by event: a module of a million values is never held as text.
 */
public final class TraceExport {
    /** How a step maps to trace time; also written into the file. */
    public static final String TIME_UNIT = "1 step of the schedule = 1 microsecond of trace time";

    private static final int SCHEDULE_PID = 1;

    /** What was written: slices of values, counter events, and allocations (processes). */
    public record Summary(long slices, long counterEvents, int allocations) {}

    /**
     * What a trace of {@code m} leaves out, as a clause for the line that reports it: the values
     * without a live range (and so without a slice; on CPU, mostly the thread-local ones) and the
     * allocations that hold none with one, so "53 values on 10 allocations" is not read as
     * contradicting {@code summary}'s 104 and 61. Empty when nothing is left out.
     */
    public static String leftOut(HloModule m, Summary s) {
        long unranged = 0, threadLocal = 0;
        for (HloValue v : m.values()) {
            if (v.hasRange()) continue;
            unranged++;
            BufferAllocation a = m.allocation(v.allocation());
            if (a != null && a.threadLocal()) threadLocal++;
        }
        int allocations = m.allocations().size() - s.allocations();
        if (unranged == 0 && allocations <= 0) return "";
        StringBuilder b = new StringBuilder(" (of ").append(m.values().size()).append(" values and ")
                .append(m.allocations().size()).append(" allocations: ");
        if (unranged > 0) {
            b.append(unranged).append(unranged == 1 ? " value has" : " values have").append(" no live range");
            if (threadLocal == unranged) b.append(unranged == 1 ? ", a thread-local one" : ", all thread-local");
            else if (threadLocal > 0) b.append(", ").append(threadLocal).append(" of them thread-local");
            if (allocations > 0) b.append(", and ");
        }
        if (allocations > 0) b.append(allocations).append(allocations == 1 ? " allocation holds" : " allocations hold")
                .append(" no value with one");
        return b.append(", so they are not drawn)").toString();
    }

    private final HloModule module;
    private final Writer out;
    private final StringBuilder line = new StringBuilder(512);
    private boolean first = true;
    private long slices, counters;

    private TraceExport(HloModule module, Writer out) {
        this.module = module;
        this.out = out;
    }

    /**
     * Writes the trace of {@code m} to {@code out} (buffered by the caller; left open and flushed).
     *
     * @throws IllegalArgumentException when the module has no live ranges (nothing to put on a timeline)
     */
    public static Summary write(HloModule m, Writer out) throws IOException {
        if (m.steps() == 0) throw new IllegalArgumentException(m.handle() + " has no live ranges: no schedule to trace");
        TraceExport t = new TraceExport(m, out);
        int allocations = t.writeAll();
        out.flush();
        return new Summary(t.slices, t.counters, allocations);
    }

    private int writeAll() throws IOException {
        out.write("{\"traceEvents\":[\n");
        String name = module.info().name() == null ? module.handle() : module.info().name();
        metadata(SCHEDULE_PID, -1, "process_name", name + ": schedule and occupied bytes (" + TIME_UNIT + ")");
        metadata(SCHEDULE_PID, -1, "process_sort_index", 0);
        metadata(SCHEDULE_PID, 1, "thread_name", "schedule");
        schedule();
        occupied();
        int peak = Liveness.of(module).peakTime();
        instant("peak", peak);
        int claimed = Liveness.of(module).claimedPeakTime();
        if (claimed >= 0 && claimed < module.steps()) instant("claimed_peak", claimed);
        int allocations = 0;
        for (BufferAllocation a : module.allocations()) if (allocation(a)) allocations++;
        out.write("\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{");
        line.setLength(0);
        line.append("\"bufq_module\":");
        JsonFormatter.string(name, line);
        line.append(",\"time_unit\":");
        JsonFormatter.string(TIME_UNIT, line);
        line.append(",\"steps\":").append(module.steps()).append(",\"peak_step\":").append(peak);
        if (claimed >= 0) line.append(",\"claimed_peak_step\":").append(claimed);
        out.append(line).write("}}\n");
        return allocations;
    }

    /** One slice per step on the schedule thread, named by the instruction that runs then. */
    private void schedule() throws IOException {
        List<String> seq = module.sequence();
        for (int t = 0; t < module.steps(); t++) {
            begin("X", SCHEDULE_PID, 1, t < seq.size() ? seq.get(t) : "(end)", t);
            line.append(",\"dur\":1,\"cat\":\"step\",\"args\":{\"step\":").append(t).append("}}");
            emit();
        }
    }

    /** A counter event wherever a colour's occupied bytes change; Perfetto makes a track per arg. */
    private void occupied() throws IOException {
        List<Integer> colors = Liveness.of(module).colors();
        long[][] bytes = new long[colors.size()][];
        for (int c = 0; c < colors.size(); c++) bytes[c] = Liveness.of(module).occupiedBytesByStep(OptionalInt.of(colors.get(c)));
        for (int t = 0; t <= module.steps(); t++) {
            boolean changed = t == 0 || t == module.steps();
            for (int c = 0; c < colors.size() && !changed; c++) changed = bytes[c][t] != bytes[c][t - 1];
            if (!changed) continue;
            begin("C", SCHEDULE_PID, 0, "occupied bytes", t);
            line.append(",\"args\":{");
            for (int c = 0; c < colors.size(); c++) {
                if (c > 0) line.append(',');
                line.append("\"color ").append(colors.get(c)).append("\":").append(t < module.steps() ? bytes[c][t] : 0);
            }
            line.append("}}");
            emit();
            counters++;
        }
    }

    private void instant(String name, int t) throws IOException {
        if (t < 0) return;
        begin("i", SCHEDULE_PID, 1, name, t);
        line.append(",\"s\":\"g\",\"args\":{\"step\":").append(t).append("}}");
        emit();
    }

    /**
     * The allocation's values as slices, each on the first lane free since before its start (lanes
     * reused earliest-free first, so an allocation takes as many lanes as it has values live at once).
     * False when none of its values has a live range.
     */
    private boolean allocation(BufferAllocation a) throws IOException {
        List<HloValue> values = module.valuesIn(a.index());
        int n = 0;
        long[] byStart = new long[values.size()];
        for (int i = 0; i < values.size(); i++) {
            HloValue v = values.get(i);
            if (v.hasRange() && v.rangeEnd() >= v.rangeStart()) byStart[n++] = (long) v.rangeStart() << 32 | i;
        }
        if (n == 0) return false;
        Arrays.sort(byStart, 0, n);
        int pid = a.index() + 2;
        metadata(pid, -1, "process_name", "allocation " + a.index() + " (" + a.kind() + ", color " + a.color() + ", "
                + a.size() + " bytes)");
        metadata(pid, -1, "process_sort_index", a.index() + 1);
        PriorityQueue<long[]> free = new PriorityQueue<>((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        int lanes = 0;
        for (int k = 0; k < n; k++) {
            HloValue v = values.get((int) byStart[k]);
            long[] lane = free.peek();
            if (lane != null && lane[0] < v.rangeStart()) {
                free.poll();
            } else {
                lane = new long[] {0, ++lanes};
                metadata(pid, (int) lane[1], "thread_name", "values " + lane[1]);
            }
            slice(pid, (int) lane[1], v);
            lane[0] = v.rangeEnd();
            free.add(lane);
        }
        return true;
    }

    private void slice(int pid, int tid, HloValue v) throws IOException {
        begin("X", pid, tid, v.label(), v.rangeStart());
        line.append(",\"dur\":").append((long) v.rangeEnd() - v.rangeStart() + 1).append(",\"cat\":\"value\",\"args\":{\"shape\":");
        JsonFormatter.string(v.shape().text(), line);
        line.append(",\"size\":").append(v.size()).append(",\"offset\":").append(v.offset()).append(",\"id\":").append(v.id());
        HloInstruction ins = module.instruction(v.name());
        if (ins != null && ins.opName() != null) {
            line.append(",\"op_name\":");
            JsonFormatter.string(ins.opName(), line);
        }
        String source = ins == null ? null : ins.source();
        if (source != null) {
            line.append(",\"source\":");
            JsonFormatter.string(source, line);
        }
        line.append("}}");
        emit();
        slices++;
    }

    /** A metadata event ({@code ph: M}); {@code tid} < 0 for a process's. */
    private void metadata(int pid, int tid, String what, Object value) throws IOException {
        begin("M", pid, Math.max(tid, 0), what, -1);
        line.append(",\"args\":{\"").append(what.endsWith("sort_index") ? "sort_index" : "name").append("\":");
        JsonFormatter.value(value, line);
        line.append("}}");
        emit();
    }

    /** Starts an event in {@link #line}: phase, ids, name and (unless negative) timestamp; the caller closes it. */
    private void begin(String ph, int pid, int tid, String name, long ts) {
        line.setLength(0);
        line.append("{\"ph\":\"").append(ph).append("\",\"pid\":").append(pid).append(",\"tid\":").append(tid).append(",\"name\":");
        JsonFormatter.string(name, line);
        if (ts >= 0) line.append(",\"ts\":").append(ts);
    }

    private void emit() throws IOException {
        if (!first) out.write(",\n");
        first = false;
        out.append(line);
    }
}
