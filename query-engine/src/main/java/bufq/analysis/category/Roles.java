package bufq.analysis.category;

import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.Shape;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the entry parameters are, by what the program does with them. A parameter the program
 * updates (an output of its shape made from it and from the backward pass, or written into its
 * donated buffer) is a weight when the differentiated function reads it (a {@code jvp(} or
 * {@code transpose(} instruction reads it or a copy of it), else optimizer state. A parameter not
 * updated (BatchNorm's running statistics and caches, which the program rewrites from forward values
 * only, included) is named by its pytree path ({@link OpNames#root}): {@code params...} weights,
 * {@code opt_state...} optimizer, others inputs; {@code parameters} without an op_name. And which
 * backward values are gradients: shaped like an updated parameter and flowing into its update,
 * or a loop's carry of that shape.
 */
final class Roles {
    private static final int MAX_HOPS = 8;

    private final String[] category;      // per entry parameter position, else null
    private final String[] reason;
    private final String[] label;         // the parameter's path, or its name
    private final boolean[] gradient;

    private Roles(String[] category, String[] reason, String[] label, boolean[] gradient) {
        this.category = category;
        this.reason = reason;
        this.label = label;
        this.gradient = gradient;
    }

    String category(int entry) { return category[entry]; }

    String reason(int entry) { return reason[entry]; }

    String label(int entry) { return label[entry]; }

    boolean gradient(int i) { return gradient[i]; }

    static Roles of(HloModule m, ValueGraph g, List<HloValue> values, boolean[] entry, Phases ph, Lineage lin) {
        int n = g.n;
        int maxTime = m.info().maxTime();
        Map<Integer, Integer> paramOfAllocation = new HashMap<>();
        for (int i = 0; i < n; i++) if (entry[i]) paramOfAllocation.put(values.get(i).allocation(), i);
        boolean[] updated = new boolean[n], updates = new boolean[n];
        // the outputs of the backward pass that update a parameter: in its donated buffer, or made from it
        for (int o = 0; o < n; o++) {
            HloValue v = values.get(o);
            if (entry[o] || !ph.backward(o) || !v.hasRange() || maxTime < 0 || v.rangeEnd() < maxTime) continue;
            Integer p = paramOfAllocation.get(v.allocation());
            if (p != null && sameDims(values.get(p).shape(), v.shape())) { updated[p] = true; updates[o] = true; }
            for (int q : madeFrom(g, values, lin, o)) { updated[q] = true; updates[o] = true; }
        }
        // read by the differentiated function, through copies of it
        boolean[] readByModel = new boolean[n];
        boolean anyMarked = false;
        for (int i = 0; i < n; i++) anyMarked |= ph.differentiated(i);
        for (int i = 0; i < n; i++) {
            int p = lin.origin[i];
            if (p < 0 || readByModel[p]) continue;
            for (int j : g.succ(i)) {
                if (lin.origin[j] >= 0) continue;
                if (anyMarked ? ph.differentiated(j) : !ph.backward(j)) { readByModel[p] = true; break; }
            }
        }
        // the dims of the backward pass's live-out values: a gradient function returns its weights' gradients
        Set<String> returned = new HashSet<>();
        for (int o = 0; o < n; o++) {
            HloValue v = values.get(o);
            if (!entry[o] && ph.backward(o) && v.shape() != null && v.hasRange() && maxTime >= 0 && v.rangeEnd() >= maxTime)
                returned.add(dims(v.shape()));
        }
        // a gradient function updates nothing: only there does returning a parameter's shape make it a weight (in a
        // training step a BatchNorm statistic of a bias's shape is no weight: nothing updates it from the backward pass)
        boolean anyUpdated = false;
        for (int i = 0; i < n; i++) anyUpdated |= updated[i];
        String[] category = new String[n], reason = new String[n], label = new String[n];
        Set<String> weightDims = new HashSet<>();
        for (int i = 0; i < n; i++) {
            if (!entry[i]) continue;
            String op = g.opName(i);
            label[i] = op == null ? values.get(i).name() : op;
            String root = op == null ? null : OpNames.root(op);
            Shape shape = values.get(i).shape();
            if (updated[i]) {
                boolean w = readByModel[i];
                category[i] = w ? Builtin.WEIGHTS : Builtin.OPTIMIZER;
                reason[i] = w ? "updated by the program and read by the model" : "updated by the program, not read by the model";
            } else if (!anyUpdated && readByModel[i] && shape != null && shape.rank() > 0 && returned.contains(dims(shape))
                    && (root == null || root.equals(Builtin.WEIGHTS))) {
                category[i] = Builtin.WEIGHTS;
                reason[i] = "read by the model, and the backward pass returns a value of its shape (its gradient)";
            } else if (root != null) {
                category[i] = root;
                reason[i] = "not updated; its path names it " + root;
            } else {
                category[i] = op == null ? Builtin.PARAMETERS : Builtin.INPUTS;
                reason[i] = "not updated by the program";
            }
            if (category[i].equals(Builtin.WEIGHTS) && shape != null) weightDims.add(dims(shape));
        }
        for (int o = 0; o < n; o++) {
            HloValue v = values.get(o);
            if (!entry[o] && ph.backward(o) && v.shape() != null && v.hasRange() && maxTime >= 0 && v.rangeEnd() >= maxTime
                    && weightDims.contains(dims(v.shape()))) updates[o] = true;
        }
        return new Roles(category, reason, label, gradients(g, values, ph, lin, updates, weightDims));
    }

    /** The parameters an output is made from: its operands' lineage, back through values of its own dims. */
    private static Set<Integer> madeFrom(ValueGraph g, List<HloValue> values, Lineage lin, int o) {
        Set<Integer> found = new HashSet<>();
        Shape shape = values.get(o).shape();
        if (shape == null || !shape.isArray()) return found;
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        Set<Integer> seen = new HashSet<>();
        queue.add(new int[] {o, 0});
        seen.add(o);
        while (!queue.isEmpty()) {
            int[] e = queue.poll();
            for (int s : g.pred(e[0])) {
                if (!seen.add(s) || !sameDims(values.get(s).shape(), shape)) continue;
                int p = lin.origin[s];
                if (p >= 0) { if (!lin.gathered[s]) found.add(p); continue; }
                if (e[1] + 1 < MAX_HOPS) queue.add(new int[] {s, e[1] + 1});
            }
        }
        return found;
    }

    /**
     * Backward values shaped like an updated weight that flow into an update, walking back from the
     * updating outputs through values of such a shape; and a loop's backward carries of such a shape.
     */
    private static boolean[] gradients(ValueGraph g, List<HloValue> values, Phases ph, Lineage lin, boolean[] updates,
                                       Set<String> updatedDims) {
        int n = g.n;
        boolean[] gradient = new boolean[n];
        if (updatedDims.isEmpty()) return gradient;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        boolean[] seen = new boolean[n];
        for (int o = 0; o < n; o++) if (updates[o]) { queue.add(o); seen[o] = true; }
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (int p : g.pred(s)) {
                if (seen[p] || lin.origin[p] >= 0 || !ph.backward(p)) continue;
                Shape sh = values.get(p).shape();
                if (sh == null || !updatedDims.contains(dims(sh))) continue;
                seen[p] = true;
                gradient[p] = true;
                queue.add(p);
            }
        }
        for (int i = 0; i < n; i++) {
            HloValue v = values.get(i);
            if (v.phi() && ph.backward(i) && v.shape() != null && updatedDims.contains(dims(v.shape()))) gradient[i] = true;
        }
        return gradient;
    }

    static boolean sameDims(Shape a, Shape b) {
        return a != null && b != null && a.isArray() && b.isArray() && Arrays.equals(a.dims(), b.dims());
    }

    private static String dims(Shape s) { return s.isArray() ? Arrays.toString(s.dims()) : s.text(); }
}
