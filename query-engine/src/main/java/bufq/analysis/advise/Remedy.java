package bufq.analysis.advise;

import bufq.analysis.advise.Advice.Change;
import bufq.analysis.category.OpNames;

import bufq.analysis.fit.Capacities;
import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Changes;
import bufq.analysis.fit.Failure;
import bufq.analysis.fit.Fit;
import bufq.analysis.fit.FitReport;
import bufq.analysis.fit.Keep;
import bufq.analysis.fit.Program;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.oom.OomReport;
import bufq.analysis.oom.OomText;
import bufq.analysis.sharding.Replication;
import bufq.analysis.whatif.Edit;
import bufq.eval.Catalog;
import bufq.lang.QueryException;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.ProgramSizes;
import bufq.model.Shape;
import bufq.model.TilingModel;
import bufq.units.Units;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The remedy policy, for every client: which allocation of a module to answer for (the one a loaded
 * out-of-memory message failed on, else the largest live at the peak), what else was held beside the
 * program ({@code fit}'s drops, under the capacity said or the bound the message implies), by how
 * much it is over, and the changes that shrink the allocation, each measured with {@code whatif} (or
 * handed in already measured, as {@code fit}'s drops of co-resident arrays are), each with the values
 * it changes and the JAX code that makes it. {@link AdviceList} ranks them with the rules' findings.
 */
public final class Remedy {
    private Remedy() {}

    /**
     * The allocation answered for and its changes.
     *
     * @param why     how it was chosen ("the allocation message 1 of run.log failed on")
     * @param failing whether an out-of-memory message failed on it (else it is the peak's largest)
     * @param over    by how much the program is over what it is offered with what is held beside it;
     *                -1 when not known or not over
     * @param unseen  what the dumps cannot see that {@code over} leaves out, or null: on XLA:CPU with no
     *                reservation, the process's own memory (over is then the least it is over)
     * @param need    what a change must save for the program to fit: {@code over}, plus the least the
     *                unseen part holds where there is one ({@link Failure#PROCESS_BYTES}); -1 when not known
     * @param offered what the program is offered, bytes (the capacity less what it reserves); -1 when not known
     */
    public record Answer(BufferAllocation allocation, String why, boolean failing, long over, String unseen, long need,
                         long offered, List<Change> changes) {
        public Answer {
            changes = List.copyOf(changes);
        }
    }

    /**
     * What to answer for in {@code m} and its changes, the ones that need what else the programs hold
     * measured by {@code fit}.
     *
     * @param oom      the loaded messages, or null
     * @param source   how results name the messages' file ("run.log")
     * @param modules  every loaded module, in running order (the messages join to them)
     * @param capacity the capacity said, or null (a message's figures may bound it)
     * @return the allocation and its changes; null without an allocation to answer for
     */
    public static Answer answer(HloModule m, OomText oom, String source, List<HloModule> modules, Capacity capacity,
                                Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        OomReport.Join join = null;
        if (oom != null)
            for (OomReport.Join j : OomReport.joins(oom, modules))
                if (join == null && j.module() != null && j.module().handle().equals(m.handle())) join = j;
        BufferAllocation a = target(m, join != null && join.allocation() != null ? join.allocation().index() : -1);
        if (a == null) return null;
        boolean failing = join != null && join.allocation() != null && join.allocation().index() == a.index();
        String why = failing ? "the allocation message " + join.number() + " of " + source + " failed on"
                : "the largest allocation live at the peak";
        List<Change> others = new ArrayList<>();
        long offered = -1, over = -1, need = -1;
        String unseen = null;
        List<Failure> failures = oom == null ? List.of() : Capacities.failures(oom, source, modules);
        if (capacity != null || !failures.isEmpty()) {
            List<Program> programs = new ArrayList<>();
            for (HloModule x : modules) programs.add(Program.of(x));
            if (programs.isEmpty()) programs.add(Program.of(m));
            try {
                FitReport r = FitReport.of(programs, capacity, Keep.ALL, "", failures);
                offered = r.capacity().offeredBytes();
                // XLA:CPU's device is the process: its own memory (the interpreter, jaxlib) is in the capacity, not the dumps
                // a run that failed on XLA:CPU ran in a process whose own memory the capacity holds and no dump shows; a
                // reservation only assumed from the message is the least that can have been held: the process holds more
                long unknown = 0;
                if (failing && "cpu".equals(m.info().backend()) && (capacity == null || capacity.reservedBytes() <= 0)) {
                    unseen = PROCESS;
                    unknown = Math.max(0, Failure.PROCESS_BYTES - r.capacity().reservedBytes());
                }
                for (Fit.Step s : r.steps()) {
                    if (!s.program().handle().equals(m.handle())) continue;
                    if (!s.fits()) over = s.overBytes();
                    // a program that failed is over by at least the process's least, whatever the dumps say
                    long all = s.overBytes() + unknown;
                    if (all > 0) need = all;
                }
                String set = null;   // fit names the set of arrays once, on its first row: each row of it reproduces by that
                for (Changes.Change c : r.changes()) {
                    if (c.kind().equals("cut temp")) continue;   // the chunking measures that, per value
                    if (c.statement() != null) set = c.statement();
                    others.add(new Change(c.kind() + " " + c.target(), c.bytes(), FIT, JaxCode.fit(c), c.why(),
                            set != null ? set : "fit drop " + c.target()));
                }
            } catch (IllegalArgumentException e) {
                // no capacity and no failure among these programs to bound it: no fit changes
            }
        }
        return new Answer(a, why, failing, over, unseen, need, offered, changes(m, a, offered, need, others, catalog, tiling, tilings));
    }

    /**
     * What an XLA:CPU program's capacity holds that no dump shows, when no reservation counts it: under
     * {@code ulimit -v}, a Python process with jaxlib loaded holds about 1.4 GB before any program, more
     * with other libraries (three real training runs with optax: 1.7 to 2.7 GB).
     */
    static final String PROCESS = "the process's own memory, which no dump shows (" + Failure.PROCESS + " before any"
            + " program, more with other libraries)";

    /** Changes that store a value in bf16: they change what the program computes. */
    static final String BF16_OUTPUT = "bf16 output", SCAN_YS_BF16 = "scan ys in bf16";

    /** The figure of a change {@code fit} measured: the set re-run without the arrays. */
    public static final String FIT = "exact: fit";

    /** The allocation a remedy is for: {@code index}, or the largest allocation live at the peak when -1. */
    public static BufferAllocation target(HloModule m, int index) {
        if (index >= 0 && m.allocation(index) != null) return m.allocation(index);
        Liveness l = Liveness.of(m);
        if (l.peakTime() < 0) return null;
        BufferAllocation best = null;
        for (HloValue v : LiveValues.inDevice(m, l.peakTime())) {
            BufferAllocation a = m.allocation(v.allocation());
            if (a != null && (best == null || a.size() > best.size())) best = a;
        }
        return best;
    }

    /**
     * The changes that shrink allocation {@code a} of {@code m}, each measured, in no order (the list
     * ranks them with the rules' findings).
     *
     * @param offered what the program is offered (bytes), -1 when no capacity is known: the chunk
     *                count is the least power of two under which the program would fit, else 2 where it is
     *                over by a known amount, else 4
     * @param over    what a change must save for the program to fit ({@link Answer#need}), -1 when not
     *                known: a chunk or microbatch count is the least that saves that much
     * @param others  changes measured elsewhere ({@code fit}'s drops), listed with these
     */
    public static List<Change> changes(HloModule m, BufferAllocation a, long offered, long over, List<Change> others,
                                       Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        List<HloValue> values = new ArrayList<>(m.valuesIn(a.index()));
        List<HloValue> holders = holders(m, a);
        List<Change> changes = new ArrayList<>(others);
        List<Change> scan = scan(m, holders, catalog, tiling, tilings);
        changes.addAll(scan);
        // where a scan's stacked values hold most of the allocation, the scan changes say what to do with them (they
        // are stacked along its iterations); a small loop beside big values (a random generator's) leaves the chunking
        long looped = 0, held = 0;
        for (HloValue v : holders) {
            held += v.size();
            if (Cuts.loopElement(v, 2)) looped += v.size();
        }
        // and where the largest is a scan's stack ([iterations, batch, ...]: a loop over layers keeps each layer's input),
        // its axis 0 is the loop's, never the batch
        boolean stacked = !scan.isEmpty() && 2 * looped >= held || !holders.isEmpty() && Cuts.loopElement(holders.get(0), 3);
        if (stacked) changes.addAll(Cuts.scanMicrobatch(m, a, holders, over, catalog, tiling, tilings));
        else if (a.isTemp() || (!a.isParameter() && !ProgramSizes.liveOut(a)))
            changes.addAll(Cuts.chunk(m, a, holders, offered, over, catalog, tiling, tilings));
        List<HloValue> largest = new ArrayList<>(values);
        largest.sort(Comparator.comparingLong(HloValue::size).reversed());
        if (ProgramSizes.liveOut(a) && !a.isParameter())
            changes.add(Cuts.measured(m, BF16_OUTPUT, Advice.Effect.LOWERS_PRECISION, "out.astype(jnp.bfloat16)", "the output (" + shape(a) + ") in bf16 halves it;"
                    + " or shard it across devices (jax.sharding), or donate an argument of its size (donate_argnums)",
                    List.of(Edit.Scale.of(Edit.Where.of("allocation = " + a.index()), 0.5)), largest, catalog, tiling, tilings));
        changes.addAll(smaller(m, over, catalog, tiling, tilings));
        if (a.isParameter()) {
            Replication.Group g = Replication.groupOf(m, values);
            if (g != null)
                changes.add(Cuts.measured(m, ShardRule.NAME, Advice.Effect.KEEPS, JaxCode.SHARD, "the argument " + String.join(", ", g.paths()) + " is " + g.now()
                        + " on a mesh of " + g.partitions() + " devices: shard it (and its optimizer state) over every device",
                        ShardingAudit.edits(g), g.values(), catalog, tiling, tilings));
            changes.add(Cuts.measured(m, "donate", Advice.Effect.KEEPS, "jax.jit(f, donate_argnums=(" + a.parameter() + ",))", "donate the argument"
                    + " (donate_argnums) so the output may reuse it; or pass it in bf16",
                    List.of(Edit.Donate.of(Edit.Where.of("allocation = " + a.index()))), largest, catalog, tiling, tilings));
        }
        return changes;
    }

    /** What holds allocation {@code a} at its busiest step, largest first. */
    static List<HloValue> holders(HloModule m, BufferAllocation a) {
        // the allocation's busiest step counts bytes, not values: two live values at one offset share them
        int t = Liveness.of(m).allocationUse(a.index()).maxTime();
        List<HloValue> holders = new ArrayList<>();
        for (HloValue v : m.valuesIn(a.index())) if (v.hasRange() && v.rangeStart() <= t && t <= v.rangeEnd()) holders.add(v);
        holders.sort(Comparator.comparingLong(HloValue::size).reversed());
        return holders;
    }


    /** The change that runs the program on fewer examples per call: it changes what one call computes. */
    static final String SMALLER = "smaller batch";

    /**
     * A program whose bytes are its inputs, as a decode step's KV cache ({@code cache['layers'][i]['k']},
     * {@code [batch, length, heads, dim]}, donated and written in place) fills a device: no rewrite of
     * the program shrinks them, only fewer examples per call (or a shorter cache). Only in a program
     * with no backward pass (a training step's examples are the microbatch row's, which keeps its
     * update), where they hold at least half its peak. The entry parameters
     * that are neither weights nor optimizer state, grouped by their leading axis; the largest group,
     * its arrays (and the outputs that reuse them) scaled by 1/k, k the least power of two dividing
     * the axis (up to 64) that saves what the program is over, else 2.
     */
    private static List<Change> smaller(HloModule m, long over, Catalog catalog, TilingModel tiling,
                                         Function<String, TilingModel> tilings) throws QueryException {
        // a training step's examples are cut by the microbatch row, which keeps its update
        for (HloInstruction i : m.instructions()) if (OpNames.backward(i.opName())) return List.of();
        // the inputs that are neither weights nor optimizer state, by leading axis
        Map<Long, List<HloValue>> byLead = new TreeMap<>();
        for (BufferAllocation x : m.allocations()) {
            if (!x.isParameter() || x.parameterShape() == null || x.parameterShape().rank() < 2 || x.parameterShape().dim(0) < 2) continue;
            HloValue p = null;
            for (HloValue v : m.valuesIn(x.index())) if (p == null && sameDims(v, x.parameterShape())) p = v;
            if (p == null) continue;
            String c = Facts.category(m, p);
            if (!"weights".equals(c) && !"optimizer".equals(c)) byLead.computeIfAbsent(x.parameterShape().dim(0), l -> new ArrayList<>()).add(p);
        }
        long lead = -1, total = 0;
        for (var e : byLead.entrySet()) {
            long bytes = 0;
            for (HloValue p : e.getValue()) bytes += m.allocation(p.allocation()).size();
            if (bytes > total) {
                lead = e.getKey();
                total = bytes;
            }
        }
        // only where they are most of the program: else the rows that rewrite it say what to do
        if (lead < 0 || 2 * total < Liveness.of(m).peakBytes()) return List.of();
        List<HloValue> inputs = new ArrayList<>(byLead.get(lead));
        List<Long> ids = new ArrayList<>();
        for (HloValue p : inputs) for (HloValue v : m.valuesIn(p.allocation())) ids.add(v.id());
        inputs.sort(Comparator.comparingLong(HloValue::size).reversed());
        HloValue first = inputs.get(0);
        String path = Facts.opName(m, first).isEmpty() ? first.label() : Facts.opName(m, first);
        long axis = lead, held = total;
        return Cuts.sized(2, lead, 64, over, k -> Cuts.measured(m, SMALLER, Advice.Effect.FEWER_EXAMPLES, "f(x[:len(x) // " + k + "])  # a batch " + k + " times smaller",
                inputs.size() + " input arrays with leading axis " + axis + " per device (e.g. " + path + ", " + first.shape().text()
                + "; " + Units.human(held) + " per device) hold the program's bytes and no rewrite of it shrinks them: give it a"
                + " batch " + k + " times smaller (" + axis + " -> " + axis / k + " per device; " + k + " calls, or fewer examples"
                + " served at once), or cut another axis of theirs by as much (a shorter cache); this changes what one call computes",
                List.of(Edit.Scale.of(Edit.Where.ofIds(ids), 1.0 / k)), inputs, catalog, tiling, tilings));
    }

    /** Whether {@code v} has the dimensions of {@code s}, whatever its layout. */
    private static boolean sameDims(HloValue v, Shape s) {
        if (v.shape() == null || v.shape().rank() != s.rank()) return false;
        for (int i = 0; i < s.rank(); i++) if (v.shape().dim(i) != s.dim(i)) return false;
        return true;
    }


    /**
     * A scan's stacked outputs among the holders: elements of a while loop's tuple ({@code while.15{2}},
     * a nameless {@code arg_tuple} element of its body, no op_name of their own) of rank 2 or more,
     * traced to the loop by the while element in the same allocation. The scan's {@code ys}: one
     * slice per iteration along the leading axis. Measured: the ys in bf16, and not stacked at all (a
     * reduction carried in the loop instead).
     */
    private static List<Change> scan(HloModule m, List<HloValue> holders, Catalog catalog, TilingModel tiling,
                                     Function<String, TilingModel> tilings) throws QueryException {
        List<HloValue> ys = new ArrayList<>();
        String loop = null;
        for (HloValue v : holders) {
            if (!Cuts.loopElement(v, 2)) continue;
            ys.add(v);
            if (loop == null && v.name().startsWith("while")) loop = v.name();
        }
        if (ys.isEmpty()) return List.of();
        if (loop == null) {
            // a body's arg_tuple element: its loop is the while whose element shares the allocation
            for (HloValue v : m.valuesIn(ys.get(0).allocation())) if (v.name().startsWith("while")) loop = v.name();
        }
        ys = readForward(m, loop, ys);
        if (ys.isEmpty()) return List.of();
        // the same buffers under their other names (the loop's elements, the body's parameters, the
        // dynamic-update-slice that writes each slice): an edit of one name alone frees no byte
        List<HloValue> aliases = new ArrayList<>();
        for (HloValue v : m.valuesIn(ys.get(0).allocation())) {
            for (HloValue y : ys) {
                if (v.offset() < y.offset() + y.size() && y.offset() < v.offset() + v.size() && v.size() == y.size()) {
                    aliases.add(v);
                    break;
                }
            }
        }
        HloInstruction w = loop == null ? null : m.instruction(loop);
        String at = (loop == null ? "a while loop" : loop) + (w != null && w.opName() != null ? " (" + w.opName() + ")" : "")
                + (w != null && Facts.source(w) != null ? " at " + Facts.source(w) : "");
        Edit.Where where = Facts.byId(aliases);
        List<Change> out = new ArrayList<>();
        out.add(Cuts.measured(m, SCAN_YS_BF16, Advice.Effect.LOWERS_PRECISION, "return carry, y.astype(jnp.bfloat16)", ys.size() + " stacked outputs of the lax.scan at " + at + " (e.g. "
                + ys.get(0).name() + ys.get(0).index() + ", " + ys.get(0).shape().text() + ": one slice per iteration along the leading"
                + " axis): return its ys in bf16", List.of(Edit.Scale.of(where, 0.5)), ys, catalog, tiling, tilings));
        out.add(Cuts.measured(m, "no scan ys", Advice.Effect.KEEPS, "jax.lax.scan(lambda c, x: (c + g(x), None), c0, xs)", "the same ys not stacked: carry what is needed of them (a running sum, the loss)"
                + " in the scan's carry, or jax.checkpoint the scan body so its residuals are recomputed", List.of(Edit.Drop.of(where)),
                ys, catalog, tiling, tilings));
        return out;
    }



    /**
     * The ys a user's code reads, of a scan in the forward pass of a differentiated function: there
     * the loop also stacks its residuals, one slice per iteration, which only the backward pass reads
     * (no user under the forward pass's op_name); carrying the loss in the scan, or returning the ys
     * in bf16, leaves those as they are. A real RNN training step whose loss moved into the carry
     * saved 4.6 GB where dropping all four stacked outputs promised 8.6 GB. Other loops: all {@code ys}.
     */
    static List<HloValue> readForward(HloModule m, String loop, List<HloValue> ys) {
        HloInstruction w = loop == null ? null : m.instruction(loop);
        if (w == null || !OpNames.forward(w.opName())) return ys;
        List<HloValue> read = new ArrayList<>();
        for (HloValue y : ys)
            for (String u : Facts.userOpNames(m, y))
                if (OpNames.forward(u)) {
                    read.add(y);
                    break;
                }
        return read;
    }


    private static String shape(BufferAllocation a) {
        return a.outputShape() != null ? a.outputShape().text() : Units.human(a.size());
    }

}
