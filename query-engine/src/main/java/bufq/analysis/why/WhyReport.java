package bufq.analysis.why;

import bufq.analysis.category.Categories;
import bufq.units.Units;
import bufq.analysis.liveness.OccupiedShares;
import bufq.analysis.liveness.LiveValues;
import bufq.model.BufferAllocation;
import bufq.analysis.liveness.EarlierEnd;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.analysis.sharding.Collectives;
import bufq.analysis.sharding.Shardings;
import bufq.model.HloPosition;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.liveness.RangeEnd;
import bufq.analysis.liveness.UseSchedule;
import bufq.analysis.liveness.UseSchedule.Stretch;
import bufq.analysis.liveness.UseSchedule.TimedUse;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;

/**
 * {@code why VALUE}: what keeps one value alive, in parts that are each a typed table: what it is,
 * where it is born, its positions and uses in schedule order, why its live range ends where it
 * ends, its idle stretches, and what it weighs at the peak.
 *
 * @param what  shape, logical and assigned size, allocation, offset, colour
 * @param born  step and defining instruction with its metadata, then one row per frame of its
 *              Python stack where the dump has one ({@link HloInstruction#stack()})
 * @param uses  positions and uses in schedule order
 * @param end   the rule that ends its live range ({@link RangeEnd})
 * @param idle  idle stretches, longest first
 * @param peak  at the peak: live or not, its share of the occupied bytes, what freeing it earlier saves
 */
public record WhyReport(Table what, Table born, Table uses, Table end, Table idle, Table peak) {
    /** Idle stretches shown per value; the rest are counted in a note. */
    static final int MAX_STRETCHES = 5;

    /** The parts in the order they print. */
    public List<Output> tables() { return List.copyOf(parts().values()); }

    /**
     * The parts by name, in print order, named as the json format names them from their titles
     * (what_it_is, born, uses, why_it_ends, idle_stretches, at_the_peak): the script API's keys.
     */
    public Map<String, Table> parts() {
        Map<String, Table> m = new LinkedHashMap<>();
        m.put("what_it_is", what);
        m.put("born", born);
        m.put("uses", uses);
        m.put("why_it_ends", end);
        m.put("idle_stretches", idle);
        m.put("at_the_peak", peak);
        return m;
    }

    /**
     * What the values live at the peak hold then ({@link OccupiedShares}), computed once for all the
     * values one {@code why} explains rather than once per value.
     */
    static final class PeakHoldings {
        private final Map<HloValue, Long> held = new IdentityHashMap<>();

        PeakHoldings(HloModule m) {
            int peak = Liveness.of(m).peakTime();
            if (peak < 0) return;
            List<HloValue> at = LiveValues.inDevice(m, peak);
            long[] shares = OccupiedShares.of(at);
            for (int i = 0; i < at.size(); i++) held.put(at.get(i), shares[i]);
        }

        /** Bytes {@code v} holds at the peak; 0 when it is not live then. */
        long of(HloValue v) { return held.getOrDefault(v, 0L); }
    }

    /**
     * One value's report. Linear in its positions and uses (the uses table sorts them: O((P + U) log
     * (P + U))); a value with a 100,000-long chain of each takes well under a second. Ctrl-C and the
     * query time limit (which interrupt the thread) stop it within {@link #CHECK_EVERY} rows.
     *
     * @throws CancellationException when the thread is interrupted; the flag stays set
     */
    public static WhyReport of(HloModule m, HloValue v, PeakHoldings holdings) {
        String name = v.label() + " (id " + v.id() + ")";
        cancelled();
        Table what = what(m, v, name), born = born(m, v, name), uses = uses(m, v, name);
        cancelled();
        Table end = end(m, v, name), idle = idle(m, v, name);
        cancelled();
        return new WhyReport(what, born, uses, end, idle, atPeak(m, v, name, holdings));
    }

    /** Rows between two looks at the thread's interrupt. */
    static final int CHECK_EVERY = 4096;

    private static void cancelled() {
        if (Thread.currentThread().isInterrupted()) throw new CancellationException("why cancelled");
    }

    private static Table what(HloModule m, HloValue v, String name) {
        BufferAllocation a = m.allocation(v.allocation());
        Categories c = Categories.of(m);
        int p = m.positionOf(v);
        Table.Builder b = Table.builder().key("what_it_is").title("what it is: " + name)
                .column("value", ColumnType.STRING).column("id", ColumnType.INT).column("shape", ColumnType.STRING)
                .column("logical", ColumnType.BYTES).column("assigned", ColumnType.BYTES)
                .column("allocation", ColumnType.INT).column("kind", ColumnType.STRING)
                .column("offset", ColumnType.INT).column("color", ColumnType.INT).column("category", ColumnType.STRING)
                .row(v.label(), v.id(), v.shape() == null ? null : v.shape().text(), v.shape() == null ? null : v.logicalSize(),
                        v.size(), (long) v.allocation(), a == null ? null : a.kind(), v.offset(), (long) v.color(),
                        p < 0 ? null : c.name(p));
        String reason = p < 0 ? null : c.reason(p);
        if (reason != null) b.note(v.label() + " is " + c.name(p) + ": " + reason);
        String carried = carried(m, v);
        if (carried != null) b.note(carried);
        return b.build();
    }

    /** For a collective's result in an SPMD module: what it carries (each leaf of a combined one) and whether it reduced whole; else null. */
    private static String carried(HloModule m, HloValue v) {
        if (!Shardings.header(m).spmd()) return null;
        Collectives.Collective c = Collectives.of(m).of(v);
        if (c == null) return null;
        Collectives.Element e = Collectives.of(m).elementOf(v);
        StringBuilder b = new StringBuilder(c.combined() ? "combined " + c.kind() + " " + c.name() + " of " + c.elements().size() + " operands"
                : c.kind() + " " + c.name());
        if (e != null) b.append(c.combined() ? "; this is operand " + e.index() + ": " : ": ")
                .append(e.leaf() == null ? "no parameter met within a few steps" : (c.kind().equals("all-gather") ? "gathers " + e.path()
                        : "carries the gradient of " + e.leaf() + " (read beside " + e.path() + ")"));
        if (c.combined() && !c.leaves().isEmpty()) b.append("; all carry ").append(String.join(", ", c.leaves()));
        if (c.whole() != null) b.append("; ").append(c.whole());
        return b.toString();
    }

    private static Table born(HloModule m, HloValue v, String name) {
        HloInstruction ins = m.instruction(v.name());
        int last = UseSchedule.lastUse(m, v);
        Table.Builder b = Table.builder().key("born").title("born: " + name)
                .column("step", ColumnType.INT).column("instruction", ColumnType.STRING).column("opcode", ColumnType.STRING)
                .column("op_name", ColumnType.STRING).column("source", ColumnType.STRING)
                .column("live_from", ColumnType.INT).column("live_to", ColumnType.INT).column("last_use", ColumnType.INT)
                .row(stepOrNull(m.timeOf(v.name())), v.name(), ins == null ? null : ins.opcode(),
                        ins == null ? null : ins.opName(), (ins == null ? null : ins.source()),
                        v.hasRange() ? (Object) (long) v.rangeStart() : null, v.hasRange() ? (Object) (long) v.rangeEnd() : null,
                        stepOrNull(last));
        List<String> stack = ins == null ? List.of() : ins.stack();
        for (String frame : stack) b.row(null, null, null, null, frame, null, null, null);
        if (!stack.isEmpty()) b.note("the rows after the first are the Python stack that made it, outermost frame first");
        int step = m.timeOf(v.name());
        if (v.hasRange() && step >= 0 && v.rangeStart() != step) {
            // the idle stretches count from the live range's start, so say which birth they use
            b.note("live from step " + v.rangeStart() + ", " + (v.rangeStart() < step ? "before" : "after") + " its instruction at step "
                    + step + (v.rangeStart() < step && ins != null && "parameter".equals(ins.opcode())
                    ? " (a parameter is live from the start of the program)" : "")
                    + "; its idle stretches start after step " + v.rangeStart() + ", the start of its live range");
        }
        return b.build();
    }

    /** Positions, then uses, in schedule order; each use names the position it reads through. */
    private static Table uses(HloModule m, HloValue v, String name) {
        record Row(int step, int order, Object[] cells) {}
        List<Row> rows = new ArrayList<>();
        Set<String> named = new TreeSet<>();   // opcodes read from a name
        List<HloPosition> positions = v.positions();
        // The position each instruction names first, so a use finds the one it reads through in O(1):
        // scanning every position for every use was quadratic (a 100,000-long chain never ended).
        Map<String, HloPosition> byInstruction = new HashMap<>();
        for (int i = 0; i < positions.size(); i++) {
            if (i % CHECK_EVERY == 0) cancelled();
            HloPosition p = positions.get(i);
            byInstruction.putIfAbsent(p.instruction(), p);
            HloInstruction ins = m.instruction(p.instruction());
            int t = m.timeOf(p.instruction());
            rows.add(new Row(t, i, new Object[] {stepOrNull(t), p.toString(), null, null,
                    ins == null || ins.opcode() == null ? opcodeFromName(p.instruction(), named) : ins.opcode(), ins == null ? null : ins.opName()}));
        }
        List<TimedUse> timed = UseSchedule.timed(m, v);
        for (int i = 0; i < timed.size(); i++) {
            if (i % CHECK_EVERY == 0) cancelled();
            TimedUse u = timed.get(i);
            HloInstruction user = m.instruction(u.use().user());
            HloPosition through = through(byInstruction, user, u.use().operand());
            rows.add(new Row(u.step(), positions.size() + u.order(), new Object[] {stepOrNull(u.step()),
                    through == null ? null : through.toString(), u.use().user(), (long) u.use().operand(),
                    user == null || user.opcode() == null ? opcodeFromName(u.use().user(), named) : user.opcode(), user == null ? null : user.opName()}));
        }
        rows.sort(Comparator.comparingInt((Row r) -> r.step() < 0 ? Integer.MAX_VALUE : r.step()).thenComparingInt(Row::order));
        Table.Builder b = Table.builder().key("uses").title("uses: " + name + ", positions and uses in schedule order")
                .column("step", ColumnType.INT).column("position", ColumnType.STRING).column("user", ColumnType.STRING)
                .column("operand", ColumnType.INT).column("opcode", ColumnType.STRING).column("op_name", ColumnType.STRING);
        for (Row r : rows) b.ownedRow(r.cells());
        if (v.uses().isEmpty()) b.note("the dump lists no uses");
        if (!named.isEmpty()) b.note("opcode of " + String.join(", ", named) + ": from the name, as XLA names an instruction "
                + "after its opcode (the dump lists no instruction for one that defines no value)");
        b.note("a row with a user is a use, read through the position it names; the others are positions");
        return b.build();
    }

    /** Opcodes that only pass a buffer on: the instructions a position or use may name without defining a value. */
    private static final Set<String> FORWARDING = Set.of("bitcast", "get-tuple-element", "tuple", "while",
            "conditional", "call", "domain", "add-dependency", "opt-barrier", "optimization-barrier", "copy-start", "copy-done",
            "async-start", "async-done", "send", "send-done", "recv", "recv-done");

    /**
     * The opcode an instruction the dump does not list is named after ({@code bitcast.6} is a bitcast),
     * when that is an opcode that passes a buffer on; else null. Adds the name to {@code named}.
     */
    private static String opcodeFromName(String instruction, Set<String> named) {
        String stem = instruction.replaceFirst("\\.[0-9]+$", "");
        if (!FORWARDING.contains(stem)) return null;
        named.add(instruction);
        return stem;
    }

    /**
     * The position whose instruction is operand {@code k} of {@code user} (the value's first at that
     * instruction, from {@code byInstruction}), or null when the dump does not say.
     */
    private static HloPosition through(Map<String, HloPosition> byInstruction, HloInstruction user, int k) {
        if (user == null || k < 0 || k >= user.operands().size()) return null;
        return byInstruction.get(user.operands().get(k));
    }

    /** One row per clause of the explanation, so each stays readable in a terminal's table. */
    private static Table end(HloModule m, HloValue v, String name) {
        RangeEnd e = RangeEnd.of(m, v);
        Table.Builder b = Table.builder().key("why_it_ends").title("why it ends: " + name)
                .column("reason", ColumnType.STRING).column("detail", ColumnType.STRING);
        for (String c : e.clauses()) b.row(e.reason().word(), c);
        return b.build();
    }

    private static Table idle(HloModule m, HloValue v, String name) {
        int peak = Liveness.of(m).peakTime();
        List<Stretch> all = new ArrayList<>(UseSchedule.idleStretches(m, v));
        all.sort(Comparator.comparingInt(Stretch::steps).reversed().thenComparingInt(Stretch::from));
        Table.Builder b = Table.builder().key("idle_stretches").title("idle stretches: " + name + ", live but not used, longest first")
                .column("from", ColumnType.INT).column("to", ColumnType.INT).column("steps", ColumnType.INT)
                .column("byte_steps", ColumnType.INT).column("peak_inside", ColumnType.BOOL);
        for (Stretch s : all.subList(0, Math.min(MAX_STRETCHES, all.size()))) {
            b.row((long) s.from(), (long) s.to(), (long) s.steps(), Math.multiplyExact(v.size(), (long) s.steps()),
                    peak >= 0 && s.contains(peak));
        }
        if (all.size() > MAX_STRETCHES) {
            b.note((all.size() - MAX_STRETCHES) + " shorter stretches not shown");
            for (Stretch s : all.subList(MAX_STRETCHES, all.size())) {
                if (peak >= 0 && s.contains(peak)) b.note("the peak, step " + peak + ", falls in one of them: " + s.from() + ".." + s.to());
            }
        }
        if (!v.hasRange()) b.note("no live range in the dump");
        else if (all.isEmpty()) b.note("used at every step of its live range");
        b.note("byte_steps: assigned bytes x steps; a step is busy when the value is born there or an instruction reads it");
        return b.build();
    }

    /**
     * The value at the peak ({@link Liveness#peakTime()}): whether it is live then, the bytes it holds
     * then ({@link OccupiedShares}, so bytes it shares with another value count once) and their share
     * of the occupied bytes, and what ending its live range at its last use at or before the peak (or
     * at its birth) would save: the peak recomputed with that one end moved ({@link EarlierEnd}, the
     * same figure as {@link Liveness#compute} on the edited inputs), before minus after. The peak
     * may move to another step; the saving is the drop of the
     * highest step, not of this one.
     */
    private static Table atPeak(HloModule m, HloValue v, String name, PeakHoldings holdings) {
        Liveness l = Liveness.of(m);
        int peak = l.peakTime();
        long before = l.peakBytes();
        boolean live = peak >= 0 && v.liveAt(peak);
        Long held = null, after = null, saves = null;
        Double share = null;
        int freeAt = -1;
        String why;
        if (peak < 0) why = "no live ranges in the dump, so no peak";
        else if (!live) {
            why = "not live at the peak, so freeing it earlier saves nothing there";
            held = 0L;
            share = 0.0;
            after = before;
            saves = 0L;
        } else {
            held = holdings.of(v);
            share = Units.share(held, before);
            freeAt = lastUseBefore(m, v, peak);
            if (freeAt == peak) {
                why = freeAt == v.rangeStart() ? "born at the peak, so it cannot end before it"
                        : "used at the peak, so it cannot end before it";
                after = before;
            } else {
                EarlierEnd edited = EarlierEnd.of(m, v, freeAt);
                after = edited.peakBytes();
                why = (freeAt == v.rangeStart() ? "nothing reads it between its birth and the peak: ended at its birth, step "
                        : "ended at its last use before the peak, step ") + freeAt + ", the peak recomputed "
                        + (after == before ? "does not drop: another step holds as much" : "drops by saves")
                        + (edited.peakTime() != peak ? "; the highest step is then " + edited.peakTime() : "");
            }
            saves = before - after;
        }
        Table.Builder b = Table.builder().key("at_the_peak").title("at the peak: " + name)
                .column("peak", ColumnType.INT).column("live", ColumnType.BOOL).column("held", ColumnType.BYTES)
                .column("share", ColumnType.PERCENT).column("free_at", ColumnType.INT).column("peak_bytes", ColumnType.BYTES)
                .column("peak_after", ColumnType.BYTES).column("saves", ColumnType.BYTES)
                .row(stepOrNull(peak), live, held, share, stepOrNull(freeAt), peak < 0 ? null : before, after, saves);
        b.note(why);
        if (live) b.note("held: its bytes at the peak, each byte once (blame's rule); free_at: its last use at or before the peak, "
                + "or its birth");
        return b.build();
    }

    /** The last step in {@code [birth, peak]} at which {@code v} is used, or its birth when none is. */
    private static int lastUseBefore(HloModule m, HloValue v, int peak) {
        int best = v.rangeStart();
        for (HloUse u : v.uses()) {
            int t = m.timeOf(u.user());
            if (t > best && t <= peak) best = t;
        }
        return best;
    }

    static Long stepOrNull(int t) { return t < 0 ? null : (long) t; }
}
