package bufq.analysis.category;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;

import java.util.BitSet;
import java.util.List;
import java.util.Set;

/**
 * The built-in rules, taken in this order for each value, the first that holds naming it:
 * <ol>
 *   <li>{@code constants}: a {@code constant} instruction, or a value of a constant allocation;
 *   <li>an entry parameter (a {@code parameter} instruction in a parameter allocation, not a loop's
 *       phi): {@code weights} or {@code optimizer} by its pytree path ({@link OpNames#root}), else
 *       {@code inputs}; without an op_name, {@code parameters};
 *   <li>{@code outputs}: live out of the program (its range reaches the last step);
 *   <li>{@code collectives}: made by an all-gather, all-reduce, reduce-scatter, all-to-all or
 *       collective-permute (their async starts and ends too);
 *   <li>{@code gradients}: a {@code transpose(} part in its op_name (JAX's backward pass);
 *   <li>{@code residuals}: a {@code jvp(} part (the forward pass) and live at a step whose instruction
 *       is of the backward pass: an activation saved for it;
 *   <li>{@code temporaries}: everything else.
 * </ol>
 * Where the dump has no instructions (no Used values section), the allocation's kind decides:
 * parameter allocations' values live from the first step are {@code parameters}, constant ones
 * {@code constants}, values live out {@code outputs}, the rest {@code temporaries}.
 */
final class Builtin {
    private Builtin() {}

    static final String WEIGHTS = "weights", OPTIMIZER = "optimizer", INPUTS = "inputs", PARAMETERS = "parameters",
            OUTPUTS = "outputs", RESIDUALS = "residuals", GRADIENTS = "gradients", COLLECTIVES = "collectives",
            CONSTANTS = "constants", TEMPORARIES = "temporaries";

    /** The built-in categories in the order reports list them when their bytes tie; parameters only where used. */
    static final List<String> ORDER = List.of(WEIGHTS, OPTIMIZER, INPUTS, PARAMETERS, OUTPUTS, RESIDUALS, GRADIENTS,
            COLLECTIVES, CONSTANTS, TEMPORARIES);

    /** A built-in category's place in {@link #ORDER}; a user's after them all. */
    static int rank(String category) {
        int i = ORDER.indexOf(category);
        return i < 0 ? ORDER.size() : i;
    }

    static final Set<String> COLLECTIVE_OPCODES = Set.of("all-gather", "all-gather-start", "all-gather-done",
            "all-reduce", "all-reduce-start", "all-reduce-done", "reduce-scatter", "all-to-all", "ragged-all-to-all",
            "collective-permute", "collective-permute-start", "collective-permute-done", "collective-broadcast");

    /** The classification: each value's category, and which fell back to allocation kinds for want of an op_name. */
    record Result(String[] names, BitSet byKind, BitSet entry, boolean hasInstructions) {}

    static Result classify(HloModule m) {
        List<HloValue> values = m.values();
        int n = values.size();
        String[] out = new String[n];
        BitSet byKind = new BitSet(), entry = new BitSet();
        boolean details = m.info().hasValueDetails() && n > 0;
        int[] backwardSteps = details ? backwardSteps(m) : null;
        int maxTime = m.info().maxTime();
        for (int i = 0; i < n; i++) {
            HloValue v = values.get(i);
            BufferAllocation a = m.allocation(v.allocation());
            HloInstruction ins = details ? m.instruction(v.name()) : null;
            String op = ins == null || ins.opName() == null || ins.opName().isEmpty() ? null : ins.opName();
            String opcode = ins == null ? null : ins.opcode();
            boolean liveOut = v.hasRange() && maxTime >= 0 ? v.rangeEnd() >= maxTime : a != null && a.maybeLiveOut();
            String c;
            if ("constant".equals(opcode) || (a != null && a.constant())) c = CONSTANTS;
            else if (entryParameter(v, a, ins)) {
                entry.set(i);
                String root = op == null ? null : OpNames.root(op);
                c = op == null ? PARAMETERS : root == null ? INPUTS : root;
            } else if (liveOut) c = OUTPUTS;
            else if (opcode != null && COLLECTIVE_OPCODES.contains(opcode)) c = COLLECTIVES;
            else if (op == null) c = TEMPORARIES;
            else {
                List<String> parts = OpNames.split(op);
                if (OpNames.backward(parts)) c = GRADIENTS;
                else if (OpNames.forward(parts) && liveAtBackward(v, backwardSteps)) c = RESIDUALS;
                else c = TEMPORARIES;
            }
            if (op == null && (c == PARAMETERS || c == TEMPORARIES)) byKind.set(i);
            out[i] = c;
        }
        return new Result(out, byKind, entry, details);
    }

    /**
     * An entry parameter: a {@code parameter} instruction whose value sits in a parameter allocation
     * (a fusion's or reducer's parameters are thread-local, a loop body's are phis). Without
     * instructions: a value of a parameter allocation live from the first step.
     */
    private static boolean entryParameter(HloValue v, BufferAllocation a, HloInstruction ins) {
        if (a == null || !a.isParameter() || v.phi()) return false;
        if (ins != null) return "parameter".equals(ins.opcode());
        return !v.hasRange() || v.rangeStart() == 0;
    }

    /** Running count of backward steps: {@code c[t + 1] - c[s]} is how many of steps {@code s..t} are backward. */
    private static int[] backwardSteps(HloModule m) {
        List<String> seq = m.sequence();
        int steps = Math.max(m.steps(), seq.size());
        int[] count = new int[steps + 1];
        for (int t = 0; t < steps; t++) {
            boolean back = false;
            if (t < seq.size()) {
                HloInstruction ins = m.instruction(seq.get(t));
                back = ins != null && OpNames.backward(ins.opName());
            }
            count[t + 1] = count[t] + (back ? 1 : 0);
        }
        return count;
    }

    private static boolean liveAtBackward(HloValue v, int[] count) {
        if (!v.hasRange() || count == null) return false;
        int last = count.length - 2;
        int s = Math.max(0, v.rangeStart()), e = Math.min(last, v.rangeEnd());
        return s <= e && count[e + 1] - count[s] > 0;
    }
}
