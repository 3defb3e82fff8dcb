package bufq.analysis.category;

import bufq.analysis.liveness.Steps;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.table.ColumnType;
import bufq.table.NaturalOrder;
import bufq.units.Units;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code blame by path}: the bytes occupied at one step by op_name and parameter path, as a tree.
 * A path's steps ({@link OpNames#steps}) are its levels; at each level, paths whose steps so far
 * differ only in an index ({@code [3]}, {@code layers_3}) are one row, the index shown as {@code *}
 * where its members differ and as itself where they agree. A row's bytes are the exact sum of its
 * members' values, each byte once; its count is how many distinct paths it folds.
 */
final class PathReport {
    private PathReport() {}

    /** The one path of values without an op_name. */
    static final String NO_OP_NAME = "(no op_name)";

    /** One row: paths of one level that agree but for their indexes. */
    private static final class Node {
        final int level;
        final String key;        // the patterns of its steps, joined
        final String parent;     // the parent's key, or null at level 1
        String[] shown;          // the first member's steps; a step becomes its pattern once members differ there
        final String[] patterns;
        final Set<String> members = new HashSet<>();
        final Set<String> categories = new LinkedHashSet<>();
        final List<Node> children = new ArrayList<>();
        long bytes;
        int values;

        Node(int level, String key, String parent, List<String> steps, List<String> patterns) {
            this.level = level;
            this.key = key;
            this.parent = parent;
            this.shown = steps.subList(0, level).toArray(new String[0]);
            this.patterns = patterns.subList(0, level).toArray(new String[0]);
        }

        void add(List<String> steps, String member, long share, String category) {
            for (int j = 0; j < level; j++) if (!shown[j].equals(steps.get(j))) shown[j] = patterns[j];
            members.add(member);
            categories.add(category);
            bytes += share;
            values++;
        }

        String path() { return String.join("", shown); }
    }

    static Table run(HloModule m, Classification c, int t, String at, int depth) {
        Occupied o = Occupied.at(m, t);
        int[] positions = o.positions();
        List<HloValue> live = o.live();
        long[] shares = o.shares();
        Map<String, Node> nodes = new HashMap<>();
        List<Node> roots = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < live.size(); i++) {
            HloValue v = live.get(i);
            HloInstruction ins = c.hasInstructions ? m.instruction(v.name()) : null;
            String op = ins == null || ins.opName() == null || ins.opName().isEmpty() ? NO_OP_NAME : ins.opName();
            List<String> steps = op.equals(NO_OP_NAME) ? List.of(op) : OpNames.steps(op);
            List<String> patterns = new ArrayList<>(steps.size());
            for (String s : steps) patterns.add(OpNames.pattern(s));
            int levels = depth > 0 ? Math.min(depth, steps.size()) : steps.size();
            total += shares[i];
            StringBuilder key = new StringBuilder(), member = new StringBuilder();
            String parent = null;
            for (int l = 1; l <= levels; l++) {
                key.append('\u0000').append(patterns.get(l - 1));
                member.append(steps.get(l - 1));
                String k = key.toString();
                Node n = nodes.get(k);
                if (n == null) {
                    n = new Node(l, k, parent, steps, patterns);
                    nodes.put(k, n);
                    if (parent == null) roots.add(n);
                    else nodes.get(parent).children.add(n);
                }
                n.add(steps, member.toString(), shares[i], c.name(positions[i]));
                parent = k;
            }
        }
        Table.Builder b = Table.builder().key(at.equals("peak") ? "bytes_occupied_at_peak_step" : "bytes_occupied_at_step")
                .title("bytes occupied at " + (at.equals("peak") ? "peak step " : "step ") + t + " (" + Steps.instructionAt(m, t)
                        + ", " + Units.human(total) + ") by path, indexes folded")
                .column("level", ColumnType.INT).column("path", ColumnType.STRING).column("count", ColumnType.INT)
                .column("bytes", ColumnType.BYTES).column("share", ColumnType.PERCENT).column("values", ColumnType.INT)
                .column("category", ColumnType.STRING);
        emit(b, roots, 1, total);
        b.note("a row folds the paths that differ only in an index ([*], _*: the count says how many) and is the exact sum of their "
                + "bytes; rows are a tree, each row's children below it, a path step that does not fork shown with its child"
                + (depth > 0 ? "; paths cut after " + depth + " steps" : "")
                + "; the level-1 rows add up to " + Units.human(total) + " (" + total + " B)");
        return b.build();
    }

    private static final Comparator<Node> ORDER = Comparator.comparingLong((Node n) -> n.bytes).reversed()
            .thenComparing(Node::path, NaturalOrder.INSTANCE);

    /**
     * Rows depth first, largest first among siblings. A row whose values all go on into one child
     * is that child's (the same bytes): {@code opt_state > opt_state[0] > opt_state[0].mu} is one row
     * per fork, not one per step. {@code level} counts rows shown above, so level 1 adds up to the step.
     */
    private static void emit(Table.Builder b, List<Node> siblings, int level, long total) {
        List<Node> sorted = new ArrayList<>(siblings);
        sorted.sort(ORDER);
        for (Node first : sorted) {
            Node n = first;
            while (n.children.size() == 1 && n.children.get(0).values == n.values) n = n.children.get(0);
            b.row((long) level, n.path(), (long) n.members.size(), n.bytes, total == 0 ? 0.0 : (double) n.bytes / total,
                    (long) n.values, n.categories.size() == 1 ? n.categories.iterator().next() : String.join("+", sorted(n.categories)));
            emit(b, n.children, level + 1, total);
        }
    }

    private static List<String> sorted(Set<String> categories) {
        List<String> out = new ArrayList<>(categories);
        out.sort(Comparator.comparingInt(Builtin::rank).thenComparing(s -> s));
        return out;
    }
}
