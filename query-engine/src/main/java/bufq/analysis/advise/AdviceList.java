package bufq.analysis.advise;

import bufq.analysis.whatif.ReadableEdits;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.whatif.Edit;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.table.ColumnType;
import bufq.table.Output;
import bufq.table.Table;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The one ranked list {@code advise} answers with, for one target: the allocation an out-of-memory
 * message failed on, else the peak. The rules' findings and the changes that shrink the target's
 * allocation stand in one list, ranked by the bytes each saves, where that figure is never more than
 * a real recompilation of the change's kind delivered on the module's backend ({@link
 * Recompilation}). Each row has the JAX code that makes the change and the statement that reproduces
 * its figure. Immutable.
 */
public final class AdviceList {
    /**
     * One change.
     *
     * @param change      its short name (the rule's, or the remedy's: {@code chunk 4 ways})
     * @param saves       the figure it is ranked by
     * @param figure      what kind of figure {@code saves} is
     * @param whatifSaves what the {@code whatif} line reproduces; null for a change measured by {@code fit}
     * @param remat       whether the edit frees and remakes values (a rematerialisation): what only a
     *                    recompilation's schedule delivers
     * @param effect      what the change does to the program's results
     * @param jax         the JAX code a user writes to make it
     * @param finding     what was seen, and what the figure rests on
     * @param statement   the statement that reproduces {@code whatifSaves} (or the fit figure)
     * @param evidence    the values it changes, largest first
     */
    public record Row(String change, long saves, String figure, Long whatifSaves, boolean remat, Advice.Effect effect, String jax,
                      String finding, String statement, List<HloValue> evidence) {
        public Row {
            evidence = List.copyOf(evidence);
        }
    }

    private final HloModule module;
    private final Remedy.Answer target;
    private final List<Row> rows;
    private final List<String> notes;

    private AdviceList(HloModule module, Remedy.Answer target, List<Row> rows, List<String> notes) {
        this.module = module;
        this.target = target;
        this.rows = List.copyOf(rows);
        this.notes = List.copyOf(notes);
    }

    /** The list of the rules' findings alone, each edit by id: no allocation answered for. */
    public static AdviceList of(HloModule m, List<Advisor.Measured> found) {
        return of(m, new Advisor.Plan(found, List.of()), null, null);
    }

    /**
     * The list for {@code m}: the plan's findings and {@code remedy}'s changes (null when there is no
     * allocation to answer for), each edit printed by {@code readable} (by id when null).
     */
    public static AdviceList of(HloModule m, Advisor.Plan plan, Remedy.Answer remedy, ReadableEdits readable) {
        return of(m, plan, remedy, readable, null);
    }

    /** Rows made together: the row listed for them, and the rows it makes, as they rank alone. */
    public record Combined(Row row, List<Row> parts) {
        public Combined {
            parts = List.copyOf(parts);
        }
    }

    /** What finds rows to make together ({@link Combination#finder}). */
    @FunctionalInterface
    public interface Combiner {
        /**
         * The rows to make together when the program is over by {@code over} and no row saves it, or null.
         *
         * @param edits   each row's edits (none for a change measured elsewhere)
         * @param written how a list of edits is printed
         */
        Combined combine(List<Row> rows, Map<Row, List<Edit>> edits, long over, Function<List<Edit>, String> written);
    }

    /**
     * As {@link #of(HloModule, Advisor.Plan, Remedy.Answer, ReadableEdits)}; when the program is over by
     * a known amount that no single row saves, {@code combiner} (null for none) finds rows to make
     * together, listed as one row.
     */
    public static AdviceList of(HloModule m, Advisor.Plan plan, Remedy.Answer remedy, ReadableEdits readable,
                                Combiner combiner) {
        Function<List<Edit>, String> written = readable == null ? Edit::join : readable::render;
        Map<Row, List<Edit>> edits = new IdentityHashMap<>();
        long peak = Liveness.of(m).peakBytes(), floor = Advisor.minimumSaving(peak);
        List<Row> rows = new ArrayList<>();
        List<String> beyond = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Advisor.Measured x : plan.found()) {
            Advice a = x.advice();
            if (!x.lowersPeak()) {   // the packing loss: bytes beyond the peak, not a change of it
                beyond.add(a.rule() + ": " + a.finding() + " (" + Units.human(x.saves()) + ")");
                continue;
            }
            Recompilation.Figure fig = filled(m, Recompilation.of(m, a, x.saves()), remedy);
            String statement = "whatif " + written.apply(a.edits());
            seen.add(statement);
            Row row = new Row(a.rule(), fig.saves(), fig.kind(), x.saves(), Recompilation.remat(a), a.effect(), JaxCode.of(m, a),
                        a.finding() + fig.finding(), statement, a.values());
            rows.add(row);
            edits.put(row, a.edits());
        }
        if (remedy != null) {
            for (Advice.Change c : remedy.changes()) {
                boolean fit = c.edits().isEmpty();
                if (fit ? c.saves() <= 0 : c.saves() < floor) continue;   // saves nothing on the target
                String statement = c.shown(written);
                if (!fit && !seen.add(statement)) continue;   // a rule found the same edit
                Recompilation.Figure fig = filled(m, Recompilation.of(m, c), remedy);
                Row row = new Row(c.change(), fig.saves(), fig.kind(), fit ? null : c.whatifSaves(), false, c.effect(), c.jax(), c.finding() + fig.finding(),
                        statement, c.values());
                rows.add(row);
                edits.put(row, c.edits());
            }
        }
        dropCutBuffers(rows);
        // by bytes saved; of equal savings, what needs the least trust first (an exact figure), then as found
        rows.sort(Comparator.comparingLong((Row r) -> -r.saves()).thenComparingInt(r -> trust(r.figure())).thenComparingLong(r -> -margin(r)));
        dropRepeats(rows);
        Combined together = null;
        // rows made together for what the dumps show the program over by: a row's what-if cannot see the process
        // either, so a row short of the unseen part alone is listed as it is, not made up with a second change
        if (remedy != null && combiner != null && remedy.over() > 0) {
            together = combiner.combine(List.copyOf(rows), edits, remedy.over(), written);
            if (together != null) {
                Row r = together.row();
                Recompilation.Figure fig = filled(m, new Recompilation.Figure(r.saves(), r.figure(), ""), remedy);
                if (fig.saves() != r.saves())
                    together = new Combined(new Row(r.change(), fig.saves(), fig.kind(), r.whatifSaves(), r.remat(), r.effect(), r.jax(),
                            r.finding() + fig.finding(), r.statement(), r.evidence()), together.parts());
                rows.add(0, together.row());   // it saves more than any row alone
            }
        }
        if (remedy != null) enoughFirst(rows, remedy.need());
        List<String> notes = new ArrayList<>();
        if (remedy != null && remedy.need() > 0) notes.add(overNote(m, remedy, rows, together, combiner != null));
        for (Advisor.Blocked b : plan.blocked()) notes.add("twin peak: " + b.note(written));
        if (rows.isEmpty())
            notes.add("no change found that lowers the peak by " + Units.human(floor) + " or more"
                    + (plan.blocked().isEmpty() ? "" : ", even planned against its twin peaks")
                    + "; tried: every rule (help advise), and for the target allocation chunking (temps), bf16 and"
                    + " sharding (outputs), donation (parameters), dropping arrays held beside it (fit, with a message)");
        else if (rows.get(0).saves() <= 0)
            notes.add("no row lowers the peak of a real build on this backend: each says what its what-if found and why"
                    + " a recompilation does not deliver it");
        if (remedy != null) notes.add(allocationNote(remedy));
        for (String b : beyond) notes.add("beyond the peak, not a change: " + b);
        notes.add("saves: never more than a real recompilation of that kind delivered on this backend;"
                + " 'exact: whatif' is the peak recomputed under the edit with the schedule kept, 'exact: fit' the programs"
                + " re-run without the arrays, 'upper bound: whatif' the edit as the change's best case (an offload's copies"
                + " taking no time, a value not made at all), 'estimate: recompilation' the what-if's figure cut to what real"
                + " builds of that kind saved, with the measured error in the finding; whatif_saves is what the whatif line reproduces");
        return new AdviceList(m, remedy, rows, notes);
    }

    /** {@code f} as a recompilation for {@code remedy}'s program delivers it on the module's backend ({@link Recompilation#filled}). */
    private static Recompilation.Figure filled(HloModule m, Recompilation.Figure f, Remedy.Answer remedy) {
        return remedy == null ? f : Recompilation.filled(m, f, remedy.need(), remedy.offered());
    }

    /**
     * Removes each {@code big-buffer} row whose values a {@code chunk} or {@code microbatch} row cuts:
     * the big buffer's figure is the value not made at all, which no number of chunks delivers (k
     * chunks leave a k-th of it live), while the chunk row is the same change with its count sized
     * and measured. Without such a row the big buffer stays, as the pointer it is.
     */
    static void dropCutBuffers(List<Row> rows) {
        Set<HloValue> cut = new HashSet<>();
        for (Row r : rows)
            if (r.effect() == Advice.Effect.CUTS) cut.addAll(r.evidence());
        if (cut.isEmpty()) return;
        rows.removeIf(r -> r.change().equals("big-buffer") && !r.evidence().isEmpty() && cut.containsAll(r.evidence()));
    }

    /**
     * Removes a row that repeats a higher one: the same change, JAX code and saving on mostly the
     * same values (at least half of the smaller set), as a rule finds it once for the peak and once
     * planned against a twin peak. A user makes the change once; the higher row stands for both.
     */
    static void dropRepeats(List<Row> rows) {
        for (int i = rows.size() - 1; i > 0; i--) {
            Row r = rows.get(i);
            for (int j = 0; j < i; j++) {
                Row h = rows.get(j);
                if (h.saves() != r.saves() || !h.change().equals(r.change()) || !h.jax().equals(r.jax())
                        || h.evidence().isEmpty() || r.evidence().isEmpty())
                    continue;
                Set<HloValue> shared = new HashSet<>(h.evidence());
                shared.retainAll(new HashSet<>(r.evidence()));
                if (2L * shared.size() >= Math.min(h.evidence().size(), r.evidence().size())) {
                    rows.remove(i);
                    break;
                }
            }
        }
    }

    /**
     * When the program is over by {@code over} bytes, the rows that each save at least that come
     * first. Among them, a change that keeps every result (donation, microbatching, sharding) comes
     * before one that lowers a value's precision or gives a call fewer examples: both make the program
     * fit, and only the second changes what it computes (a wide tensor-parallel MLP's exact bf16 row
     * had ranked above sharding, whose figure is an estimate, the fix XLA's guide names first). Then the exact
     * figures before bounds and estimates: of several changes that each claim enough, the one whose
     * figure needs no trust in a schedule is the one to make first. A real llama step 31.2 GiB over
     * listed an offload bound of 34.3 GiB above gradient accumulation's exact 32.6 GiB; the offload
     * build delivered 91% and stayed over, the accumulation build 99% and fit. Then by saves. The rest
     * stay ranked by saves.
     */
    static void enoughFirst(List<Row> rows, long over) {
        if (over <= 0) return;
        List<Row> enough = new ArrayList<>(), rest = new ArrayList<>();
        for (Row r : rows) (r.saves() >= over ? enough : rest).add(r);
        enough.sort(Comparator.comparing((Row r) -> r.effect().changesResults()).thenComparingInt(r -> trust(r.figure()))
                .thenComparingLong(r -> -r.saves()).thenComparingLong(r -> -margin(r)));
        rows.clear();
        rows.addAll(enough);
        rows.addAll(rest);
    }

    /**
     * What a row's what-if saves, for rows whose figures were cut to the same estimate: of two changes
     * a backend is expected to deliver equally, the one measured to save more has room to spare.
     */
    private static long margin(Row r) {
        return r.whatifSaves() == null ? r.saves() : r.whatifSaves();
    }

    /** 0 for the figures that need no trust in a schedule, then bounds, then estimates. */
    private static int trust(String figure) {
        return figure.startsWith("exact") ? 0 : figure.equals(Recompilation.BOUND) ? 1 : 2;
    }

    private static String overNote(HloModule m, Remedy.Answer remedy, List<Row> rows, Combined together, boolean combined) {
        long over = remedy.over(), need = remedy.need();
        String by = over > 0 ? m.handle() + " is over by " + (remedy.unseen() == null ? "" : "at least ") + Units.human(over) + " (" + over
                + " B) with what is held beside it" : m.handle() + " fits beside what the dumps show, yet failed";
        if (remedy.unseen() != null)
            by += "; with " + remedy.unseen() + ", a change must save at least " + Units.human(need) + " (" + need + " B)";
        String reserve = remedy.unseen() == null ? "" : "; 'set reserved SIZE' counts the process as it is";
        if (together != null) {
            List<String> parts = new ArrayList<>();
            for (Row p : together.parts()) parts.add(String.valueOf(rows.indexOf(p) + 1));
            long saves = together.row().saves();
            return by + ": no single change saves that much; rank " + (rows.indexOf(together.row()) + 1) + " makes ranks " + String.join(" and ", parts)
                    + " together, measured as one what-if" + (saves >= need ? "" : ", which saves what the dumps show it over by and"
                    + " leaves " + Units.human(saves - over) + " for the process's own memory") + reserve;
        }
        List<String> enough = saving(rows, need, false), kept = saving(rows, need, true);
        Row closest = rows.isEmpty() ? null : rows.get(0);   // of rows that save too little, the first saves most
        if (enough.isEmpty() && over > 0 && closest != null && closest.saves() >= over)
            return by + ": no row is measured to save that much; rank 1 saves what the dumps show it over by and leaves "
                    + Units.human(closest.saves() - over) + " for the process's own memory, so it fits if the process holds no more"
                    + " than that" + reserve;
        return by + ": " + (enough.isEmpty() ? "no single change saves that much" + (combined ? ", nor two or three of the exact and upper-bound"
                + " rows together (each set that could add up measured as one what-if): the program needs a change this list"
                + " does not hold (more devices to shard over, or a smaller model)" : "; several together must")
                : ranks(enough) + " at least that" + (kept.isEmpty() ? "" : "; " + (kept.size() == 1 ? "rank " : "ranks ") + String.join(", ", kept)
                + " need" + (kept.size() == 1 ? "s" : "") + " no recompilation")) + reserve;
    }

    /** The ranks (from 1) of the rows that save at least {@code bytes}; only those {@code fit} measured when {@code kept}. */
    private static List<String> saving(List<Row> rows, long bytes, boolean kept) {
        List<String> ranks = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++)
            // an array not kept or donated: a change of the caller, not of the program
            if (rows.get(i).saves() >= bytes && (!kept || Remedy.FIT.equals(rows.get(i).figure()))) ranks.add(String.valueOf(i + 1));
        return ranks;
    }

    /** "rank 1 saves" or "ranks 1, 2 each save". */
    private static String ranks(List<String> ranks) {
        return ranks.size() == 1 ? "rank " + ranks.get(0) + " saves" : "ranks " + String.join(", ", ranks) + " each save";
    }

    private static String allocationNote(Remedy.Answer r) {
        BufferAllocation a = r.allocation();
        return "allocation " + a.index() + " (" + a.kind() + ", " + Units.human(a.size()) + ") is " + r.why()
                + ": the chunk, microbatch, bf16, shard, donate, scan and fit rows change it or what is held beside it";
    }

    /** The module it is for. */
    public HloModule module() { return module; }

    /**
     * The changes, ranked: {@code saves} never rises down the list, except that when the program is
     * over by a known amount the rows that each save at least that come first, exact figures first.
     */
    public List<Row> rows() { return rows; }

    /** What the target's program is over by with what is held beside it, bytes; 0 when not known. */
    public long over() { return target == null ? 0 : Math.max(0, target.over()); }

    /**
     * What a change must save for the target's program to fit, bytes: {@link #over()}, plus the least
     * the process holds where the dumps cannot see it (XLA:CPU with no reservation); 0 when not known.
     */
    public long need() { return target == null ? 0 : Math.max(0, target.need()); }

    /** What stands under the list: the target, what makes it fit, twin peaks, what the figures are. */
    public List<String> notes() { return notes; }

    /** Whether the target is an allocation an out-of-memory message failed on (else the peak). */
    public boolean failing() { return target != null && target.failing(); }

    /** What the list is for, as its title says it. */
    public String title() {
        if (failing())
            return "advice for allocation " + target.allocation().index() + " of " + module.handle() + ", " + target.why();
        Liveness l = Liveness.of(module);
        return "advice for the peak of " + module.handle() + " (step " + l.peakTime() + ", " + Units.human(l.peakBytes()) + ")";
    }

    /** Evidence rows listed per change. */
    public static final int EVIDENCE = Advisor.EVIDENCE;

    /** The list, then the evidence of each row by rank. */
    public List<Output> report() {
        long peak = Liveness.of(module).peakBytes();
        Table.Builder t = Table.builder().title(title()).key("advice")
                .column("rank", ColumnType.INT).column("change", ColumnType.STRING).column("saves", ColumnType.BYTES)
                .optionalColumn("peak_share", ColumnType.PERCENT).column("figure", ColumnType.STRING)
                .column("jax", ColumnType.STRING).optionalColumn("finding", ColumnType.STRING)
                .optionalColumn("whatif_saves", ColumnType.BYTES).column("whatif", ColumnType.STATEMENT).column("module", ColumnType.KEY);
        Table.Builder ev = Table.builder().key("evidence").title("evidence")
                .column("rank", ColumnType.INT).column("id", ColumnType.INT).column("label", ColumnType.STRING)
                .column("size", ColumnType.BYTES).column("shape", ColumnType.STRING).column("op_name", ColumnType.STRING)
                .column("source", ColumnType.STRING).column("module", ColumnType.KEY);
        Facts f = new Facts(module);
        long rank = 0;
        for (Row r : rows) {
            rank++;
            t.row(rank, r.change(), r.saves(), peak == 0 ? null : (double) r.saves() / peak, r.figure(), r.jax(), r.finding(),
                    r.whatifSaves() != null ? r.whatifSaves() : r.saves(), r.statement(), module.handle());
            for (HloValue v : r.evidence().subList(0, Math.min(EVIDENCE, r.evidence().size())))
                ev.row(rank, v.id(), v.label(), v.size(), v.shape() == null ? null : v.shape().text(),
                        f.opName(v).isEmpty() ? null : f.opName(v), f.source(v), module.handle());
        }
        for (String n : notes) t.note(n);
        return List.of(t.build(), ev.build());
    }
}
