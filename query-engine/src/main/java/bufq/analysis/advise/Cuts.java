package bufq.analysis.advise;

import bufq.analysis.advise.Advice.Change;
import bufq.analysis.category.OpNames;
import bufq.analysis.whatif.Edit;
import bufq.analysis.whatif.EditSweep;
import bufq.analysis.whatif.Outcome;
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
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The changes that cut an axis of the target allocation's values into a measured count of pieces,
 * every result kept: chunks of a temp's leading axis, microbatches of a training step's batch (axis
 * 1 of a scan's stacked values), row blocks of a batch-by-batch matrix, chunks of a sum over an axis
 * that is not the batch. Each count is the least that saves what the program must save
 * ({@link #sized}), each figure a what-if of the values scaled by 1/k.
 */
final class Cuts {
    private Cuts() {}

    /**
     * Chunking the computation that fills the allocation: {@code lax.map} (or a loop) over chunks of
     * the leading axis of its largest holder divides every holder sharing that leading dimension by
     * the chunk count, measured as those values scaled by 1/k.
     */
    static List<Change> chunk(HloModule m, BufferAllocation a, List<HloValue> holders, long offered, long over,
                              Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        if (holders.isEmpty() || holders.get(0).shape() == null || holders.get(0).shape().rank() < 2) return List.of();
        HloValue big = holders.get(0);
        long lead = big.shape().dim(0);
        if (lead < 2) return List.of();   // an axis of one element has no chunks
        Cut cut = Cut.of(m, a, holders, v -> leads(v.shape(), lead, 1));
        List<Long> ids = cut.ids();
        List<HloValue> chunked = cut.held();
        // the least count under which the program fits what it is offered; where it fits alone but is over with
        // what is held beside it, 2, raised while it saves too little; 4 when neither is known; raised to a
        // divisor of the leading axis so the chunks are equal
        long k = least(over);
        long needs = ProgramSizes.of(m).needsBytes(), rest = needs - a.size();
        if (offered > 0 && needs > offered && offered > rest) k = Math.max(2, (a.size() + offered - rest - 1) / (offered - rest));
        k = divisor(k, lead);
        HloInstruction i = m.instruction(big.name());
        String op = i == null || i.opName() == null ? big.label() : i.opName();
        // the backward pass's residuals among them: the axis is a training step's batch, cut by accumulating gradients
        boolean training = false;
        for (HloValue v : chunked) training |= "residuals".equals(Facts.category(m, v));
        Cut square = training ? square(m, a, holders, lead) : null;
        if (square != null) return rowChunks(m, a, lead, square, over, catalog, tiling, tilings);
        HloInstruction sum = training ? segmentSum(m, lead) : null;
        if (sum != null) return sized(k, lead, 64, over, n -> segmentChunks(m, a, big, op, lead, n, sum, ids, chunked, catalog, tiling, tilings));
        if (training) {
            // a microbatch divides what each example makes, never the weights, their gradients or the optimizer's state,
            // whatever their leading axis (a stack of 64 layers' weights beside a batch of 64)
            Cut batch = Cut.of(m, a, holders, v -> leads(v.shape(), lead, 1) && perExample(m, v));
            // XLA:CPU runs a convolution inside a while loop far slower: there the microbatches are a Python loop
            boolean loopSlow = "cpu".equals(m.info().backend()) && batch.held().stream().anyMatch(v -> Facts.opName(m, v).contains("conv_general_dilated"));
            return sized(k, lead, 64, over, n -> microbatch(m, a, big, op, lead, n, loopSlow, batch.ids(), batch.held(), catalog, tiling, tilings));
        }
        return sized(k, lead, 64, over, n -> measured(m, "chunk " + n + " ways", Advice.Effect.CUTS, "jax.lax.map(f, x.reshape(" + n + ", " + lead / n + ", ...))",
                "compute " + op + " (" + big.shape().text() + ") in " + n + " chunks of its leading axis (" + lead + "): lax.map over"
                + " x.reshape(" + n + ", " + lead / n + ", ...), or a Python loop of " + n + " calls, so one chunk's temporaries are live"
                + " at a time", List.of(Edit.Scale.of(Edit.Where.ofIds(ids), 1.0 / n)), chunked, catalog, tiling, tilings));
    }

    /** The least divisor of {@code axis} from {@code k} up, at most {@code axis}: equal chunks. */
    private static long divisor(long k, long axis) {
        long d = k;
        while (d < axis && axis % d != 0) d++;
        return Math.min(d, axis);
    }

    /**
     * The change at count {@code first} (raised to a divisor of {@code axis}, so the chunks are equal);
     * where the program is over by more than it saves, at twice the count (a divisor, up to {@code
     * cap}) while that saves more, until it saves enough. The first count is a guess: from the
     * allocation's size, as if all of it scaled, or the least count there is; only some of it scales,
     * and what is held beside the program, a reservation said, is in {@code over}.
     */
    static List<Change> sized(long first, long axis, long cap, long over, Counted counted) throws QueryException {
        if (first > axis) return List.of();   // fewer elements than chunks
        long k = divisor(first, axis);
        Change c = counted.at(k);
        while (over > 0 && c.saves() < over) {
            long next = divisor(k * 2, axis);
            if (next <= k || next > cap) break;
            Change d = counted.at(next);
            if (d.saves() <= c.saves()) break;
            k = next;
            c = d;
        }
        return List.of(c);
    }

    private static Change microbatch(HloModule m, BufferAllocation a, HloValue big, String op, long lead, long k, boolean loopSlow,
                                     List<Long> ids, List<HloValue> chunked, Catalog catalog, TilingModel tiling,
                                     Function<String, TilingModel> tilings) throws QueryException {
        String split = "batch.reshape(" + k + ", " + lead / k + ", ...)";
        return accumulated(m, "microbatch " + k + " ways", loopSlow
                ? "for b in " + split + ": g = jax.tree.map(jnp.add, g, jax.jit(jax.grad(loss))(params, b))"
                : "jax.lax.scan(lambda g, b: (g + jax.grad(loss)(params, b), None), g0, " + split + ")",
                "the values of allocation " + a.index() + " with leading axis " + lead + " (" + op + ", " + big.shape().text()
                + ") include the backward pass's residuals: if that axis is the batch, accumulate the gradients of " + k
                + " microbatches of " + lead / k + (loopSlow ? " in a Python loop of jitted jax.grad calls, outside any jax.jit"
                + " (XLA:CPU runs a convolution inside a jax.lax.scan far slower: a real 5-convolution step at batch 512 took 196 s"
                + " as a scan of 2 microbatches, 9 s without the loop; and unrolled inside one jitted step the microbatches are"
                + " scheduled together: at batch 4096 its temp fell only from 3.47 GB to 3.04 GB)" : " in a jax.lax.scan carry") + ", so one microbatch's activations are"
                + " live at a time", ids, k, chunked, catalog, tiling, tilings);
    }

    /**
     * Accumulating the gradients of {@code k} microbatches: the values of the batch, {@code ids}, scaled
     * by 1/k, measured with {@code whatif}; then the figure of a real build, which also carries the
     * gradients: one f32 array per weight, held by the scan from before the first microbatch through
     * each microbatch's backward pass. The failing program makes each gradient late in its backward
     * pass; the microbatched one holds them all from the start. So the figure is the peak of the
     * what-if's steps with the carry added to every step up to the last of the backward pass (after
     * it, the carry is the gradients the update reads, which the program held already). A real
     * 64-layer scan with 3.2 GiB of f32 weights a chip, microbatched 2 ways, halved its stacked
     * activations (2.0 to 1.0 GiB) and peaked 1.15 GiB higher; a DLRM, whose peak after the
     * microbatching is its update, saved what the what-if of the batch alone gave (100.2%).
     */
    private static Change accumulated(HloModule m, String change, String jax, String finding, List<Long> ids, long k,
                                      List<HloValue> values, Catalog catalog, TilingModel tiling,
                                      Function<String, TilingModel> tilings) throws QueryException {
        List<Edit> edits = List.of(Edit.Scale.of(Edit.Where.ofIds(ids), 1.0 / k));
        Outcome o = EditSweep.run(m, edits, catalog, tiling, tilings);
        long carry = 0;
        for (HloValue v : weightArguments(m)) carry += v.size() * 32 / v.shape().bitsPerElement();
        int last = -1;
        for (HloInstruction i : m.instructions()) if (i.time() > last && OpNames.backward(i.opName())) last = i.time();
        if (carry == 0 || last < 0) return new Change(change, o.saved(), Recompilation.EXACT, jax, finding, edits, null, values, Advice.Effect.CUTS);
        long peak = 0;
        for (int t = 0; t < o.after().steps(); t++) peak = Math.max(peak, o.after().occupiedBytes(t) + (t <= last ? carry : 0));
        long saves = o.before().peakBytes() - peak;
        if (o.saved() - saves < Advisor.minimumSaving(o.before().peakBytes()))   // a carry too small to move the figure
            return new Change(change, o.saved(), Recompilation.EXACT, jax, finding + "; the f32 gradients the scan carries ("
                    + Units.human(carry) + ") lower this by less than " + Advisor.MIN_SHARE * 100 + "% of the peak", edits, null,
                    values, Advice.Effect.CUTS);
        return new Change(change, saves, Recompilation.ESTIMATE, jax, finding + "; estimate: the what-if's steps (it saves "
                + Units.human(o.saved()) + ") with the f32 gradients the scan carries, " + Units.human(carry) + " (the weights'"
                + " arguments in f32), added to each up to the backward pass's last (step " + last + ")", edits, null, values,
                Advice.Effect.CUTS, o.saved());
    }

    /**
     * The entry parameters that are weights, but for tables read by a gather (an embedding): the arrays
     * a gradient carry matches. A gathered table's gradient is a scatter-add, which XLA makes in the
     * array it adds into: the carry itself (a real DLRM's 26 f32 tables, 634 MiB, microbatched 64 ways,
     * cost nothing beside what the what-if of its batch gave).
     */
    private static List<HloValue> weightArguments(HloModule m) {
        List<HloValue> out = new ArrayList<>();
        for (HloValue v : arguments(m, "weights")) if (Facts.userOpNames(m, v).stream().noneMatch(Cuts::gathers)) out.add(v);
        return out;
    }

    /** The entry parameters' arrays of one category ({@code weights}, {@code inputs}): what the step is passed. */
    private static List<HloValue> arguments(HloModule m, String category) {
        List<HloValue> out = new ArrayList<>();
        for (BufferAllocation x : m.allocations()) {
            if (!x.isParameter()) continue;
            for (HloValue v : m.valuesIn(x.index())) {
                HloInstruction i = m.instruction(v.name());
                if (i != null && "parameter".equals(i.opcode()) && v.shape() != null && v.shape().isArray() && v.shape().bitsPerElement() > 0
                        && category.equals(Facts.category(m, v)))
                    out.add(v);
            }
        }
        return out;
    }

    /**
     * The values of allocation {@code a} that are {@code [lead, lead]} matrices: the batch by the batch,
     * where one of them is made from two arrays of the batch ({@link #pairsTheBatch}). Only rank 2:
     * attention scores {@code [batch, heads, seq, seq]} whose batch happens to equal the head count are
     * not one, nor a hidden layer as wide as the batch, nor anything else whose second axis is another
     * axis of that length. Null when there are none.
     */
    private static Cut square(HloModule m, BufferAllocation a, List<HloValue> holders, long lead) {
        Cut square = Cut.of(m, a, holders, v -> v.shape() != null && v.shape().rank() == 2 && leads(v.shape(), lead, 2)
                && v.shape().dim(1) == lead);
        for (long id : square.ids()) if (pairsTheBatch(m, m.instruction(m.value(id).name()), lead)) return square;
        return null;
    }

    /**
     * Whether {@code i} reads two arrays whose leading axis is the batch ({@code img @ txt.T}): what makes
     * a {@code [B, B]} matrix one of the batch by itself. A dense layer as wide as the batch ({@code
     * x[B, K] @ w[K, B]}) reads one.
     */
    private static boolean pairsTheBatch(HloModule m, HloInstruction i, long lead) {
        return i != null && operandsLeading(m, i, lead, 2) >= 2;
    }

    /** How many of {@code i}'s operands have rank {@code rank} or more and a leading axis of {@code lead}. */
    private static int operandsLeading(HloModule m, HloInstruction i, long lead, int rank) {
        int n = 0;
        for (String o : i.operands()) {
            HloInstruction u = m.instruction(o);
            if (u != null && leads(u.shape(), lead, rank)) n++;
        }
        return n;
    }

    /** Whether {@code s} has rank {@code rank} or more and a leading axis of {@code lead}. */
    private static boolean leads(Shape s, long lead, int rank) {
        return s != null && s.rank() >= rank && s.dim(0) == lead;
    }

    /**
     * The values of an allocation that a cut divides ({@code ids}, to measure) and those of them among
     * its busiest step's holders ({@code held}, largest first: the evidence).
     */
    private record Cut(List<Long> ids, List<HloValue> held) {
        static Cut of(HloModule m, BufferAllocation a, List<HloValue> holders, Predicate<HloValue> divided) {
            List<Long> ids = new ArrayList<>();
            for (HloValue v : m.valuesIn(a.index())) if (divided.test(v)) ids.add(v.id());
            return new Cut(ids, holders.stream().filter(divided).toList());
        }
    }

    /** The first count to try: the least there is where the overrun is known, else 4. */
    private static long least(long over) {
        return over > 0 ? 2 : 4;
    }

    /**
     * Chunking the rows of a training step's batch-by-batch matrices ({@code [B, B]}: a contrastive
     * loss's similarities, pairwise distances): the batch meets itself there, so accumulating the
     * gradients of microbatches would change the loss (each example would see fewer others), while
     * computing the matrix a block of rows at a time under {@code jax.checkpoint}, each block reduced
     * inside (its logsumexp), keeps it. Measured as those matrices scaled by 1/k; k starts at 2 and
     * doubles (up to 64) until it saves what the program is over; 4 when that is not known.
     */
    private static List<Change> rowChunks(HloModule m, BufferAllocation a, long lead, Cut square, long over, Catalog catalog,
                                          TilingModel tiling, Function<String, TilingModel> tilings) throws QueryException {
        List<Long> ids = square.ids();
        List<HloValue> rows = square.held();
        HloValue first = rows.isEmpty() ? m.value(ids.get(0)) : rows.get(0);
        return sized(least(over), lead, 64, over, k -> measured(m, "chunk " + k + " ways", Advice.Effect.CUTS, "jax.lax.map(jax.checkpoint(f), rows.reshape(" + k + ", " + lead / k + ", ...))",
                    "allocation " + a.index() + " holds the backward pass's residuals and " + ids.size() + " [" + lead + ", " + lead
                    + "] matrices (e.g. " + first.label() + ", " + first.shape().text() + "): the batch meets itself there, as in a"
                    + " contrastive or pairwise loss, so microbatches would change the loss (each example would see fewer others);"
                    + " compute the rows in " + k + " blocks of " + lead / k + " (jax.lax.map over a jax.checkpoint-ed function of a"
                    + " block of rows that reduces it, e.g. its logsumexp, inside), so one block is live at a time and the loss is"
                    + " the same", List.of(Edit.Scale.of(Edit.Where.ofIds(ids), 1.0 / k)), rows, catalog, tiling, tilings));
    }

    /**
     * A scatter in the forward pass that sums values along an axis of {@code lead} into an axis of
     * another length: {@code jax.ops.segment_sum} of a graph's messages, one per edge, into its nodes.
     * The axis is then not a batch: the forward pass reduces across it. Null when there is none.
     */
    static HloInstruction segmentSum(HloModule m, long lead) {
        for (HloInstruction i : m.instructions()) {
            String op = i.opName();
            if (op == null || !op.endsWith("scatter-add") || !OpNames.forward(op) || i.shape() == null || i.shape().rank() < 1
                    || i.shape().dim(0) == lead)
                continue;
            if (operandsLeading(m, i, lead, 1) > 0) return i;
        }
        return null;
    }

    /**
     * Chunking a training step's forward sum over an axis that is not its batch ({@link #segmentSum}):
     * a microbatch of edges would change the loss (each node would sum fewer messages), while a scan
     * over chunks of the axis, each chunk's segment_sum added into the carry under {@code
     * jax.checkpoint}, computes the same sum with one chunk's values live at a time, in the backward
     * pass too. Measured as the values of that leading axis scaled by 1/k.
     */
    private static Change segmentChunks(HloModule m, BufferAllocation a, HloValue big, String op, long lead, long k,
                                        HloInstruction sum, List<Long> ids, List<HloValue> chunked, Catalog catalog,
                                        TilingModel tiling, Function<String, TilingModel> tilings) throws QueryException {
        String into = sum.shape().text().replaceAll("\\{.*", "");
        return measured(m, "chunk " + k + " ways", Advice.Effect.CUTS, "jax.lax.scan(jax.checkpoint(lambda acc, e: (acc + jax.ops.segment_sum(f(e), e.dst,"
                + " n), None)), jnp.zeros(" + dims(sum) + "), edges.reshape(" + k + ", " + lead / k + ", ...))",
                "the values of allocation " + a.index() + " with leading axis " + lead + " (" + op + ", " + big.shape().text() + ") are"
                + " summed into " + into + " in the forward pass (" + sum.opName() + ", " + sum.name() + ": a segment_sum, as of a graph's"
                + " messages into its nodes): that axis is not a batch, and microbatches of it would change the loss (each would sum"
                + " fewer terms); compute the sum in " + k + " chunks of " + lead / k + ": jax.lax.scan over the chunks of a"
                + " jax.checkpoint-ed body that adds each chunk's segment_sum into the carry, so one chunk's values are live at a"
                + " time, in the backward pass too", List.of(Edit.Scale.of(Edit.Where.ofIds(ids), 1.0 / k)), chunked, catalog, tiling, tilings);
    }

    /** An instruction's dimensions as a Python tuple: {@code (200000, 128)}. */
    private static String dims(HloInstruction i) {
        List<String> d = new ArrayList<>();
        for (int x = 0; x < i.shape().rank(); x++) d.add(String.valueOf(i.shape().dim(x)));
        return "(" + String.join(", ", d) + (d.size() == 1 ? ",)" : ")");
    }

    /** A change made with a count of {@code k}, measured. */
    @FunctionalInterface
    interface Counted {
        Change at(long k) throws QueryException;
    }

    /**
     * Microbatching a training step whose allocation holds a differentiated scan's stacked values
     * ({@code [iterations, batch, ...]}: the loop's ys and the residuals it stacks for the backward
     * pass). Every slice the loop stacks has the batch as its leading axis, so the batch is axis 1 of
     * the stacked values, whatever axis 0's length: a recurrence over 2,048 steps of a batch of 2,048
     * is cut along the batch, never along time, which the loop carries through. Accumulating the
     * gradients of k microbatches divides every stacked value by k, measured as those values of the
     * allocation scaled by 1/k; k starts at 2 and doubles (up to 16) until it saves what the program
     * is over; 4 when that is not known.
     */
    static List<Change> scanMicrobatch(HloModule m, BufferAllocation a, List<HloValue> holders, long over,
                                       Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        HloValue big = null;
        boolean training = false;
        for (HloValue v : holders) {
            if (!loopElement(v, 3)) continue;
            if (big == null) big = v;
            training |= "residuals".equals(Facts.category(m, v));
        }
        if (big == null || !training) return List.of();
        long batch = big.shape().dim(1);
        if (batch < 2) return List.of();
        Cut cut = Cut.of(m, a, holders, v -> v.shape() != null && v.shape().rank() >= 3 && v.shape().dim(1) == batch && perExample(m, v));
        List<Long> ids = cut.ids();
        List<HloValue> stacked = cut.held();
        long steps = big.shape().dim(0);
        String example = big.name() + big.index() + ", " + big.shape().text(), loop = big.name();
        boolean scansData = scansInputs(m, steps, batch);
        return sized(least(over), batch, 16, over, k -> {
            String reshape = scansData ? "xs.reshape(" + steps + ", " + k + ", " + batch / k + ", ...).swapaxes(0, 1)"
                    : "batch.reshape(" + k + ", " + batch / k + ", ...)";
            String split = scansData ? "splitting the scanned inputs along axis 1 (" + reshape + ")"
                    : "splitting the step's batch (" + reshape + "; the loop scans no input of the batch: it runs over"
                    + " stacked layers or steps of time, its batch in the carry)";
            return accumulated(m, "microbatch " + k + " ways", "jax.lax.scan(lambda g, b: (g + jax.grad(loss)(params, b), None), g0, "
                    + reshape + ")", "the lax.scan " + loop + " stacks " + steps + " slices of [" + batch + ", ...] (e.g. "
                    + example + "), among them the backward pass's residuals: its"
                    + " iterations are axis 0 and the batch is axis 1; accumulate the gradients of " + k + " microbatches of "
                    + batch / k + " in a jax.lax.scan carry, " + split + ", so one microbatch's stacked values are live at a time"
, ids, k, stacked, catalog, tiling, tilings);
        });
    }

    /**
     * Whether the step takes an input laid out as the loop scans it, {@code [iterations, batch, ...]}
     * (an RNN's time-major sequence): then the scanned inputs are what to split along axis 1. A scan
     * over stacked layers or over an ODE solver's steps scans weights or a time grid, and the batch
     * arrives as an ordinary input: that is what to split.
     */
    private static boolean scansInputs(HloModule m, long steps, long batch) {
        for (HloValue v : arguments(m, "inputs")) {
            Shape s = v.shape();
            if (s.rank() >= 2 && s.dim(0) == steps && s.dim(1) == batch) return true;
        }
        return false;
    }

    /** Whether an op_name is JAX's gather ({@code jnp.take}, {@code table[ids]}), never a collective's all-gather. */
    private static boolean gathers(String opName) {
        return opName.equals("gather") || opName.endsWith("/gather");
    }

    /** Whether {@code v} is made per example: not a weight, a gradient of one or the optimizer's state. */
    private static boolean perExample(HloModule m, HloValue v) {
        String c = Facts.category(m, v);
        return !"weights".equals(c) && !"gradients".equals(c) && !"optimizer".equals(c);
    }

    /** An element of a while loop's tuple, or of its body's, of rank {@code rank} or more: a scan's stacked value. */
    static boolean loopElement(HloValue v, int rank) {
        return v.shape() != null && v.shape().rank() >= rank && v.index() != null && !v.index().equals("{}")
                && (v.name().startsWith("while") || v.name().contains("arg_tuple"));
    }

    /** A change, its edits measured with {@code whatif}: the one place every change of the allocation is measured. */
    static Change measured(HloModule m, String change, Advice.Effect effect, String jax, String finding, List<Edit> edits,
                          List<HloValue> values, Catalog catalog, TilingModel tiling, Function<String, TilingModel> tilings)
            throws QueryException {
        Outcome o = EditSweep.run(m, edits, catalog, tiling, tilings);
        // a value not made at all is the best case of the rewrite that avoids it
        String figure = edits.get(0) instanceof Edit.Drop ? Recompilation.BOUND : Recompilation.EXACT;
        return new Change(change, o.saved(), figure, jax, finding, edits, null, values, effect);
    }
}
