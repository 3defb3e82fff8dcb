package bufq.analysis.category;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.BitSet;
import java.util.List;

/**
 * The built-in rules: each value by what the program does with it (its dataflow, {@link ValueGraph}),
 * op_names as evidence. Taken in this order, the first that holds naming a value:
 * <ol>
 *   <li>{@code constants}: a {@code constant} instruction, or a value of a constant allocation;
 *   <li>an entry parameter, by its role ({@link Roles}): {@code weights}, {@code optimizer},
 *       {@code inputs}, or {@code parameters} when nothing says;
 *   <li>a copy, bitcast, transpose, convert, reshape or slice of an entry parameter (and XLA's fusions
 *       of only those, a loop's carry of it): the parameter's category; {@code gathered weights}
 *       where an all-gather made it from weights ({@link Lineage});
 *   <li>{@code outputs}: live out of the program;
 *   <li>{@code gradients}: a value of the backward pass ({@link Phases}) shaped like an updated
 *       parameter and flowing into the update (a loop's parameter-shaped carry too), a collective's
 *       reduction of one included;
 *   <li>{@code residuals}: a forward value read by the backward pass (or moved by XLA for it), a
 *       collective's output included;
 *   <li>{@code collectives}: made by another collective (reduce-scatter, all-reduce, ...);
 *   <li>{@code cotangents}: the other values of the backward pass;
 *   <li>{@code recomputed}: a forward value JAX rematerialised ({@code rematted_computation});
 *   <li>{@code temporaries}: everything else.
 * </ol>
 * Where the dump has no instructions (no Used values section), the allocation's kind decides:
 * parameter allocations' values live from the first step are {@code parameters}, constant ones
 * {@code constants}, values live out {@code outputs}, the rest {@code temporaries}.
 */
final class Builtin {
    private Builtin() {}

    static final String WEIGHTS = "weights", OPTIMIZER = "optimizer", INPUTS = "inputs", PARAMETERS = "parameters",
            GATHERED = "gathered weights", OUTPUTS = "outputs", RESIDUALS = "residuals", RECOMPUTED = "recomputed",
            GRADIENTS = "gradients", COTANGENTS = "cotangents", COLLECTIVES = "collectives", CONSTANTS = "constants",
            TEMPORARIES = "temporaries";

    /** The built-in categories in the order reports list them when their bytes tie; parameters only where used. */
    static final List<String> ORDER = List.of(WEIGHTS, OPTIMIZER, INPUTS, PARAMETERS, GATHERED, OUTPUTS, RESIDUALS, RECOMPUTED,
            GRADIENTS, COTANGENTS, COLLECTIVES, CONSTANTS, TEMPORARIES);

    /** A built-in category's place in {@link #ORDER}; a user's after them all. */
    static int rank(String category) {
        int i = ORDER.indexOf(category);
        return i < 0 ? ORDER.size() : i;
    }

    /**
     * The classification: each value's category, which fell back to allocation kinds for want of
     * instructions or an op_name, the entry parameters, and per value what it copies (or null).
     */
    record Result(String[] names, BitSet byKind, BitSet entry, boolean hasInstructions, String[] reasons) {}

    static Result classify(HloModule m) {
        List<HloValue> values = m.values();
        int n = values.size();
        boolean details = m.info().hasValueDetails() && n > 0;
        if (!details) return byKind(m);
        String[] out = new String[n], reasons = new String[n];
        BitSet byKind = new BitSet(), entry = new BitSet();
        boolean[] isEntry = new boolean[n];
        for (int i = 0; i < n; i++) {
            HloValue v = values.get(i);
            HloInstruction ins = m.instruction(v.name());
            if (entryParameter(v, m.allocation(v.allocation()), ins)) { isEntry[i] = true; entry.set(i); }
        }
        ValueGraph g = ValueGraph.of(m);
        Phases ph = Phases.of(g, values, isEntry, FusedOps.of(m));
        Lineage lin = Lineage.of(g, values, isEntry);
        Roles roles = Roles.of(m, g, values, isEntry, ph, lin);
        int maxTime = m.info().maxTime();
        for (int i = 0; i < n; i++) {
            HloValue v = values.get(i);
            BufferAllocation a = m.allocation(v.allocation());
            String opcode = g.opcode(i);
            boolean liveOut = v.hasRange() && maxTime >= 0 ? v.rangeEnd() >= maxTime : a != null && a.maybeLiveOut();
            int o = lin.origin[i];
            String c;
            if ("constant".equals(opcode) || (a != null && a.constant())) c = CONSTANTS;
            else if (isEntry[i]) {
                c = roles.category(i);
                reasons[i] = roles.reason(i);
                if (c.equals(PARAMETERS)) byKind.set(i);
            } else if (o >= 0) {
                String oc = roles.category(o);
                c = lin.gathered[i] ? (oc.equals(WEIGHTS) ? GATHERED : COLLECTIVES) : oc;
                reasons[i] = Lineage.describe(opcode, lin.gathered[i], roles.label(o));
            } else if (liveOut) c = OUTPUTS;
            // what a collective made is first what the program does with it: a gradient reduced over the
            // data axis, an activation kept for the backward pass
            else if (ph.backward(i) && roles.gradient(i)) c = GRADIENTS;
            else if (!ph.backward(i) && !ph.recomputed(i) && ph.residual(i)) c = RESIDUALS;
            else if (lin.collective[i]) c = COLLECTIVES;
            else if (ph.backward(i)) c = COTANGENTS;
            else if (ph.recomputed(i)) c = RECOMPUTED;
            else c = TEMPORARIES;
            out[i] = c;
        }
        return new Result(out, byKind, entry, true, reasons);
    }

    /** Without instructions: by allocation kind alone. */
    private static Result byKind(HloModule m) {
        List<HloValue> values = m.values();
        int n = values.size();
        String[] out = new String[n];
        BitSet byKind = new BitSet(), entry = new BitSet();
        int maxTime = m.info().maxTime();
        for (int i = 0; i < n; i++) {
            HloValue v = values.get(i);
            BufferAllocation a = m.allocation(v.allocation());
            boolean liveOut = v.hasRange() && maxTime >= 0 ? v.rangeEnd() >= maxTime : a != null && a.maybeLiveOut();
            String c;
            if (a != null && a.constant()) c = CONSTANTS;
            else if (entryParameter(v, a, null)) { entry.set(i); c = PARAMETERS; }
            else if (liveOut) c = OUTPUTS;
            else c = TEMPORARIES;
            if (c == PARAMETERS || c == TEMPORARIES) byKind.set(i);
            out[i] = c;
        }
        return new Result(out, byKind, entry, false, new String[n]);
    }

    /**
     * An entry parameter: a {@code parameter} instruction whose value sits in a parameter allocation
     * (a fusion's or reducer's parameters are thread-local, a loop body's are phis). Without
     * instructions: a value of a parameter allocation live from the first step.
     */
    static boolean entryParameter(HloValue v, BufferAllocation a, HloInstruction ins) {
        if (a == null || !a.isParameter() || v.phi()) return false;
        if (ins != null) return "parameter".equals(ins.opcode());
        return !v.hasRange() || v.rangeStart() == 0;
    }
}
