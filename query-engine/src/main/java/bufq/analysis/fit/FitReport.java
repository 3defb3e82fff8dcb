package bufq.analysis.fit;

import bufq.units.Units;
import bufq.model.ProgramSizes;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code fit}'s answer as tables: each program alone, the programs held together in running order,
 * the arrays held, and what to change. Every byte figure is a sum of allocation sizes the user can
 * list ({@code allocations} in the program, {@code modules}).
 */
public record FitReport(Capacity capacity, Keep keep, List<Fit.Step> steps, List<Fit.Kept> kept,
                        List<Changes.Change> changes, List<String> evidence) {
    public FitReport {
        evidence = List.copyOf(evidence);
    }

    public static FitReport of(List<Program> programs, Capacity capacity, Keep keep, String selection) {
        return of(programs, capacity, keep, selection, List.of());
    }

    /**
     * As {@link #of(List, Capacity, Keep, String)}, believing {@code failures}: each raises the
     * reservation to what else must have been held for it to happen ({@link Failure#believe}), so
     * the program a message says failed never fits; {@link #evidence} says what each did. With no
     * {@code capacity} (null), the first failure among the programs bounds it ({@link Failure#bound}):
     * the most that could have been free, said as a bound, not a capacity.
     *
     * @throws IllegalArgumentException with no capacity and no failure to bound it, or a keep/drop SPEC naming nothing
     */
    public static FitReport of(List<Program> programs, Capacity capacity, Keep keep, String selection,
                               List<Failure> failures) {
        keep.check(programs);
        List<String> notes = new ArrayList<>();
        Capacity believed = capacity;
        if (capacity == null) {
            List<Fit.Step> any = Fit.steps(programs, new Capacity(Long.MAX_VALUE, 0, "any"), keep);
            for (Failure f : failures) if (believed == null) believed = f.bound(any, notes);
            if (believed == null)
                throw new IllegalArgumentException("fit needs a capacity: set capacity SIZE (e.g. 16GiB, host, unlimited), set device"
                        + " NAME ('help device' lists them), or --capacity/--device on the command line");
        }
        List<Fit.Step> steps = Fit.steps(programs, believed, keep);
        if (capacity != null) {
            for (Failure f : failures) believed = f.believe(believed, steps, notes);
            if (believed != capacity) steps = Fit.steps(programs, believed, keep);
        }
        return new FitReport(believed, keep, steps, Fit.kept(steps, keep), Changes.of(programs, believed, keep, selection, steps),
                notes);
    }

    /** The first step that does not fit, or null. */
    public Fit.Step firstOver() { return Fit.firstOver(steps); }

    /** One line for a CI log naming the program and the overflow, or null when everything fits. */
    public String failure() {
        Fit.Step s = firstOver();
        if (s == null) return null;
        String p = s.program().handle();
        if (!s.fitsAlone())
            return p + " does not fit alone: needs " + Units.human(s.needsBytes()) + " of " + Units.human(s.offeredBytes())
                    + " offered, over by " + Units.human(s.aloneOverBytes()) + " (" + s.aloneOverBytes() + " B)";
        return p + " fits alone but not with the arrays kept before it (" + Units.human(s.heldBeforeBytes()) + "): "
                + Units.human(s.totalBytes()) + " of " + Units.human(s.offeredBytes()) + " offered, over by "
                + Units.human(s.overBytes()) + " (" + s.overBytes() + " B)" + largestHeld(s);
    }

    private String largestHeld(Fit.Step s) {
        HeldArray big = null;
        for (Fit.Kept k : kept)
            if (k.heldAt(s) && (big == null || k.array().bytes() > big.bytes())) big = k.array();
        if (big == null) return "";
        return "; the largest held is " + big.name() + ", " + big.role() + " of " + big.program()
                + (big.shape() == null ? "" : " " + big.shape()) + ", " + Units.human(big.bytes());
    }

    public List<Output> outputs() {
        List<Output> out = new ArrayList<>();
        out.add(capacityTable());
        out.add(alone());
        out.add(together());
        if (!kept.isEmpty()) out.add(held());
        if (!changes.isEmpty()) out.add(changesTable());
        return out;
    }

    Table capacityTable() {
        Table.Builder b = Table.builder().key("capacity").title("capacity")
                .column("capacity_bytes", ColumnType.BYTES).column("reserved_bytes", ColumnType.BYTES)
                .column("offered_bytes", ColumnType.BYTES).column("source", ColumnType.STRING)
                .row(capacity.bytes(), capacity.reservedBytes(), capacity.offeredBytes(), capacity.source());
        for (String e : evidence) b.note(e);
        return b.build();
    }

    Table alone() {
        Table.Builder b = Table.builder().key("each_program_alone").title("each program alone")
                .column("program", ColumnType.STRING).column("needs_bytes", ColumnType.BYTES)
                .column("headroom_bytes", ColumnType.BYTES).column("share", ColumnType.PERCENT)
                .column("fits", ColumnType.BOOL).column("temp_bytes", ColumnType.BYTES)
                .column("peak_bytes", ColumnType.BYTES).column("why", ColumnType.NOTE);
        List<String> whys = new ArrayList<>();
        for (Fit.Step s : steps) {
            Program p = s.program();
            String why = why(p);
            b.row(p.handle(), s.needsBytes(), -s.aloneOverBytes(), (double) s.needsBytes() / s.offeredBytes(),
                    s.fitsAlone(), p.sizes().tempBytes(), p.peakBytes() < 0 ? null : p.peakBytes(), why);
            if (why != null) whys.add(p.handle() + ": " + why);
        }
        // the why column is a field in json; the formats for people print each row's under the table
        for (String w : whys) b.note(w);
        return b.note("needs_bytes = arguments + outputs - aliases + temp + constants (+ code, which no dump gives):"
                + " the figures of 'modules', what XLA requests for a run; peak_bytes is bufq's occupancy peak").build();
    }

    /** Why bufq's occupancy peak and JAX's peak differ from needs, for this program. */
    static String why(Program p) {
        ProgramSizes z = p.sizes();
        List<String> parts = new ArrayList<>();
        if (p.peakBytes() >= 0 && p.peakBytes() < z.needsBytes())
            parts.add("peak_bytes is " + Units.human(z.needsBytes() - p.peakBytes()) + " below needs: XLA requests every"
                    + " allocation whole for the run, while at bufq's peak step not every byte is live"
                    + (z.tempBytes() > 0 ? " (values packed in the " + Units.human(z.tempBytes()) + " temp, parameters dead before outputs are written)" : ""));
        if (z.tempBytes() > 0 && "cpu".equals(p.backend()))
            parts.add("JAX's peak_memory_in_bytes on XLA:CPU leaves the temp out: " + Units.human(z.needsBytes() - z.tempBytes()));
        else if ("tpu".equals(p.backend()))
            parts.add("JAX's peak_memory_in_bytes on XLA:TPU is the peak of occupied HBM (color 0), peak_bytes here;"
                    + " needs_bytes is the HBM allocations' total less the thread-local ones, which the compile-time"
                    + " out-of-memory check's 'HLO temporaries' figure counts too");
        if (z.aliasBytes() > 0) parts.add("a donated parameter counts once: " + Units.human(z.aliasBytes()) + " aliased");
        if (p.peakBytes() > z.needsBytes())
            parts.add("peak_bytes counts thread-local allocations, which needs leaves out as XLA does");
        return parts.isEmpty() ? null : String.join("; ", parts);
    }

    Table together() {
        Fit.Step over = firstOver();
        String title = "held together in running order" + (keep.text().isEmpty() ? " (every parameter and output kept)" : " (" + keep.text().strip() + ")");
        Table.Builder b = Table.builder().key("held_together_in_running_order").title(title)
                .column("order", ColumnType.INT).column("program", ColumnType.STRING)
                .column("held_before_bytes", ColumnType.BYTES).column("needs_bytes", ColumnType.BYTES)
                .column("total_bytes", ColumnType.BYTES).column("headroom_bytes", ColumnType.BYTES)
                .column("fits", ColumnType.BOOL).column("kept_after_bytes", ColumnType.BYTES);
        for (Fit.Step s : steps)
            b.row((long) s.order(), s.program().handle(), s.heldBeforeBytes(), s.needsBytes(), s.totalBytes(),
                    -s.overBytes(), s.fits(), s.keptBytes());
        for (Fit.Step s : steps) {
            if (s != over || s.reads().isEmpty()) continue;
            long bytes = s.reads().stream().mapToLong(HeldArray::bytes).sum();
            b.note(s.program().handle() + " takes " + s.reads().size() + " held array" + (s.reads().size() == 1 ? "" : "s") + " ("
                    + Units.human(bytes) + ", e.g. " + s.reads().get(0).name() + ") as arguments, matched by shape and size:"
                    + " counted once, in its needs, and never to drop for it");
        }
        String f = failure();
        b.note(f == null ? "every program fits with the arrays held before it" : f);
        return b.build();
    }

    Table held() {
        Table.Builder b = Table.builder().key("arrays_held").title("arrays held (kept after their program ran)")
                .column("array", ColumnType.STRING).column("program", ColumnType.STRING)
                .column("allocation", ColumnType.INT).column("role", ColumnType.STRING).column("category", ColumnType.STRING)
                .column("shape", ColumnType.STRING).column("bytes", ColumnType.BYTES).column("held_from", ColumnType.INT)
                .optionalColumn("held_until", ColumnType.INT);
        for (Fit.Kept k : kept) {
            HeldArray a = k.array();
            b.row(a.name(), a.program(), (long) a.allocation(), a.role(), a.category(), a.shape(), a.bytes(), (long) k.heldFrom(),
                    k.heldUntil() == Integer.MAX_VALUE ? null : (Object) (long) k.heldUntil());
        }
        b.note("category: what the array is in its program (blame by category's rules): a parameter's category, ', new state'"
                + " when donated; an output's 'new STATE' when it matches not-donated parameters of that category by shape, else 'result'");
        return b.build();
    }

    Table changesTable() {
        Table.Builder b = Table.builder().key("what_to_change_so_that_the_set_fits").title("what to change so that the set fits")
                .column("change", ColumnType.STRING).column("target", ColumnType.STRING)
                .column("saves_bytes", ColumnType.BYTES).column("use", ColumnType.STRING)
                .column("statement", ColumnType.STATEMENT).column("why", ColumnType.NOTE);
        for (Changes.Change c : changes) {
            b.row(c.kind(), c.target(), c.bytes(), c.runIn(), c.statement(), c.why());
            if (c.why() != null) b.note(c.target() + ": " + c.why());
        }
        return b.build();
    }
}
