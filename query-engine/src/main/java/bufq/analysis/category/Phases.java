package bufq.analysis.category;

import bufq.model.HloValue;

import java.util.ArrayDeque;
import java.util.List;

/**
 * Which values belong to the backward pass, by dataflow: a value is backward when it depends on an
 * instruction JAX marks {@code transpose(} (the loss's cotangent seed and what the transposed
 * function computes from it), forward otherwise, whatever its own op_name says: XLA's copies and
 * fusions without an op_name take the phase of what they read (a broadcast of a constant that only
 * the backward pass reads is of it). A loop's carried values take the phase of what flows into
 * them. A fusion's output takes the marks of the instructions it is computed from inside the fusion
 * ({@link FusedOps}, where the HLO text is beside the dump). Rematerialised forward values ({@code rematted_computation}) are marked {@code transpose(}
 * too but start no backward pass: they are forward, and {@link #recomputed}.
 * A forward value is a residual when the transposed function (an instruction marked
 * {@code transpose(}, or one of XLA's own without an op_name in the backward pass) or a
 * rematerialisation reads it, directly or through XLA's copies, bitcasts and converts of it.
 */
final class Phases {
    private final boolean[] backward, recomputed, residual, marked;

    private Phases(boolean[] backward, boolean[] recomputed, boolean[] residual, boolean[] marked) {
        this.backward = backward;
        this.recomputed = recomputed;
        this.residual = residual;
        this.marked = marked;
    }

    boolean backward(int i) { return backward[i]; }

    boolean recomputed(int i) { return recomputed[i]; }

    boolean residual(int i) { return residual[i]; }

    /** The op_name marks the value's instruction as the differentiated function's (jvp( or transpose(). */
    boolean differentiated(int i) { return marked[i]; }

    static Phases of(ValueGraph g, List<HloValue> values, boolean[] entry, FusedOps fused) {
        int n = g.n;
        boolean[] backward = new boolean[n], recomputed = new boolean[n], residual = new boolean[n], marked = new boolean[n];
        boolean[] transposed = new boolean[n];   // the instruction (or one it fuses) is marked transpose(
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            if (entry[i]) continue;
            String op = g.opName(i);
            boolean t = false, remat = op != null && op.contains("rematted_computation"), jvp = false;
            if (op != null) {
                for (String part : OpNames.split(op)) {
                    if (OpNames.transposed(part)) t = true;
                    if (OpNames.linearized(part) || OpNames.transposed(part)) jvp = true;
                }
            }
            // a fusion's output is of the pass of the instructions it is computed from inside the fusion, where their
            // op_names say: XLA names a fusion after one of them, or none
            FusedOps.Output inner = fused.of(g.ins[i], values.get(i).index());
            // a tuple's own table is of the pass its op_name says: its outputs may be of several
            boolean table = values.get(i).shape() != null && values.get(i).shape().isTuple();
            if (inner != null && inner.named() && !(table && op != null)) {
                t = inner.backward();
                if (op == null) jvp = inner.marked();   // read by the model: what XLA named it after, where it did
                remat = inner.recomputed() && !inner.backward();
            }
            marked[i] = jvp;
            transposed[i] = t && !remat;
            if (remat) recomputed[i] = true;
            // a loop's body parameters carry no op_name of their own; a while's op_name names the loop
            boolean source = t && !remat && !(values.get(i).phi() && !"while".equals(g.opcode(i)));
            if (source) { backward[i] = true; queue.add(i); }
        }
        FusedOps.Output[] inner = new FusedOps.Output[n];
        for (int i = 0; i < n; i++) inner[i] = fused.of(g.ins[i], values.get(i).index());
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (int j : g.succ(s)) {
                // a rematerialisation reads the backward pass (a backward loop's carry) but recomputes the forward
                if (backward[j] || entry[j] || recomputed[j] || !computedFrom(g, inner, j, s)) continue;
                backward[j] = true;
                queue.add(j);
            }
        }
        // XLA's broadcasts of constants carry no op_name and read nothing of the program: one that only the backward
        // pass reads (a backward loop's zero carry) is of it
        boolean[] constant = new boolean[n];
        for (int sweep = 0; sweep < 2; sweep++) {
            for (int i = 0; i < n; i++) {
                if (constant[i] || entry[i] || values.get(i).phi()) continue;
                boolean c = "constant".equals(g.opcode(i));
                if (!c && g.opName(i) == null && g.pred(i).length > 0) {
                    c = true;
                    for (int p : g.pred(i)) c &= constant[p];
                }
                constant[i] = c;
            }
        }
        for (int i = 0; i < n; i++) {
            if (!constant[i] || backward[i] || g.opName(i) != null || g.succ(i).length == 0) continue;
            boolean all = true;
            for (int j : g.succ(i)) all &= backward[j];
            backward[i] = all;
        }
        for (int i = 0; i < n; i++) if (backward[i]) recomputed[i] = false;
        // residuals: read by the transposed function (marked transpose(, or XLA's own ops in the backward pass; not an
        // optimizer's update, which reads the backward pass's results but is not it) or by a rematerialisation in it
        // (a checkpoint's saved input), or by XLA's moves of it that are read so
        for (int i = 0; i < n; i++) {
            if (backward[i] || entry[i]) continue;
            for (int j : g.succ(i)) {
                if (recomputed[j] || backward[j] && (g.opName(j) == null || transposed[j])) { residual[i] = true; break; }
            }
        }
        for (int i = 0; i < n; i++) if (residual[i]) queue.add(i);
        while (!queue.isEmpty()) {
            int j = queue.poll();
            if (!moves(g, j)) continue;
            for (int i : g.pred(j)) {
                if (residual[i] || backward[i] || entry[i]) continue;
                residual[i] = true;
                queue.add(i);
            }
        }
        return new Phases(backward, recomputed, residual, marked);
    }

    /**
     * Whether value {@code j} is computed from value {@code s}: for a fusion's output, where the HLO text
     * says which of its operands that output reads (a multi-output fusion computes each output from some
     * of them), else whenever its instruction reads {@code s}.
     */
    private static boolean computedFrom(ValueGraph g, FusedOps.Output[] inner, int j, int s) {
        if (inner[j] == null) return true;
        int[] p = g.pred(j);
        for (int k = 0; k < p.length; k++) if (p[k] == s && inner[j].reads(g.predOperand(j, k))) return true;
        return false;
    }

    /** XLA moved or converted the bytes, without an op_name of JAX's: a copy, bitcast, transpose, convert, or a loop's carry. */
    private static boolean moves(ValueGraph g, int j) {
        String opc = g.opcode(j);
        if (opc == null) return false;
        if (Lineage.LAYOUT.contains(opc)) return g.opName(j) == null || !g.opName(j).contains("jvp(");
        if ("custom-call".equals(opc)) return "ConcatBitcast".equals(Lineage.target(g.ins[j]));
        return "fusion".equals(opc) && Lineage.layoutFusion(g.ins[j].name());
    }
}
