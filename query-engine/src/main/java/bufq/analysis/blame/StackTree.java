package bufq.analysis.blame;

import bufq.units.Units;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.StackTraceNode;
import bufq.table.NaturalOrder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code Stack trace breakdown for peak usage} tree: the dump's own, or rebuilt from the model
 * the way XLA's {@code FormatStackTraceBreakdown} builds it (leaf = op_name, or the instruction name
 * when there is none; {@code params['a/b']} paths split into levels; tuple elements suffixed with
 * their index), and printed in XLA's layout.
 */
public final class StackTree {
    private static final Pattern VAR = Pattern.compile("[a-zA-Z_]\\w+");
    private static final Pattern KEY = Pattern.compile("\\['([^']+)'\\]");
    private static final Pattern ATTR = Pattern.compile("\\.(\\w+)");

    private StackTree() {}

    /** The tree for {@code m} at the peak: the dump's when it printed one for that step, else rebuilt. */
    public static String text(HloModule m) {
        if (usesDumpTree(m)) {
            long header = m.info().stackTraceBytes() >= 0 ? m.info().stackTraceBytes() : m.info().stackTrace().total();
            return render(m.info().stackTrace(), header);
        }
        StackTraceNode root = rebuild(m);
        return root == null ? "" : render(root, root.total());
    }

    /**
     * The tree as {@code blame} shows it: as {@link #text}, but each node's children that are values
     * without an op_name (XLA gives each its own leaf, named after its instruction: thousands of
     * {@code copy.N} rows on a big module) share one {@code (no op_name)} leaf, names with the same
     * bytes are in natural order ({@code .2} before {@code .10}), and at most {@code maxLines} node
     * lines print (0 = all), then a line saying how many were left out.
     */
    public static String display(HloModule m, int maxLines) {
        StackTraceNode root;
        long header;
        if (usesDumpTree(m)) {
            root = m.info().stackTrace();
            header = m.info().stackTraceBytes() >= 0 ? m.info().stackTraceBytes() : root.total();
        } else {
            root = rebuild(m);
            if (root == null) return "";
            header = root.total();
        }
        StackTraceNode shown = withRemaining(bucketed(root, m), new long[] {root.total()});
        StringBuilder o = new StringBuilder("  Stack trace breakdown for peak usage: ")
                .append(Units.grouped(header, ' ')).append(" bytes\n");
        int[] left = {maxLines > 0 ? maxLines : Integer.MAX_VALUE};
        int[] cut = {0};
        print(shown, "  ", true, o, left, cut);
        if (cut[0] > 0) o.append("  ... ").append(cut[0]).append(" more line").append(cut[0] == 1 ? "" : "s")
                .append(" of the tree (set maxrows 0 shows all)\n");
        return o.toString();
    }

    /** A leaf naming an instruction without op_name merges into its parent's one (no op_name) leaf. */
    private static StackTraceNode bucketed(StackTraceNode n, HloModule m) {
        List<StackTraceNode> kids = new ArrayList<>();
        double pct = 0;
        long total = 0, count = 0;
        for (StackTraceNode k : n.children()) {
            if (k.children().isEmpty() && withoutOpName(k.label(), m)) {
                pct += k.percent();
                total += k.total();
                count++;
            } else {
                kids.add(bucketed(k, m));
            }
        }
        if (count == 1 && kids.size() + 1 == n.children().size()) {
            // one such leaf: keep its name, it says more than the bucket
            for (StackTraceNode k : n.children()) if (k.children().isEmpty() && withoutOpName(k.label(), m)) kids.add(k);
        } else if (count > 0) {
            kids.add(new StackTraceNode("(no op_name, " + count + " values)", pct, total, total, 0, List.of()));
        }
        kids.sort(Comparator.comparingLong(StackTraceNode::total).reversed()
                .thenComparing(StackTraceNode::label, NaturalOrder.INSTANCE));
        return new StackTraceNode(n.label(), n.percent(), n.total(), n.current(), n.remaining(), kids);
    }

    private static boolean withoutOpName(String label, HloModule m) {
        int brace = label.indexOf('{');
        HloInstruction ins = m.instruction(brace > 0 ? label.substring(0, brace) : label);
        return ins != null && (ins.opName() == null || ins.opName().isEmpty());
    }

    /** XLA's running "remaining" figure, depth first, for a tree whose order changed. */
    private static StackTraceNode withRemaining(StackTraceNode n, long[] remaining) {
        remaining[0] -= n.current();
        long rem = remaining[0];
        List<StackTraceNode> kids = new ArrayList<>();
        for (StackTraceNode k : n.children()) kids.add(withRemaining(k, remaining));
        return new StackTraceNode(n.label(), n.percent(), n.total(), n.current(), rem, kids);
    }

    /**
     * Rebuilds the tree over the values live at the peak (the module's liveness peakTime),
     * each weighing its logical size; the root is named after the module. The dump does not say which
     * computation an instruction belongs to, so unlike XLA's tree a rebuilt one does not nest values of
     * while bodies under their loop. Null without live ranges.
     */
    public static StackTraceNode rebuild(HloModule m) { return rebuild(m, Liveness.of(m).peakTime()); }

    /** The tree over the values live at step {@code t}, as {@link #rebuild(HloModule)} builds it; null when {@code t < 0}. */
    public static StackTraceNode rebuild(HloModule m, int t) {
        if (t < 0) return null;
        Node root = new Node(m.info().name() == null ? m.handle() : m.info().name());
        for (HloValue v : LiveValues.at(m, t)) {   // every memory space, as XLA's own tree sums them
            HloInstruction ins = m.instruction(v.name());
            String leaf = ins != null && ins.opName() != null && !ins.opName().isEmpty() ? ins.opName() : v.name();
            List<String> parts = splitParams(leaf);
            if (!"{}".equals(v.index())) parts.set(parts.size() - 1, parts.get(parts.size() - 1) + v.index());
            Node n = root;
            for (String p : parts) n = n.children.computeIfAbsent(p, Node::new);
            n.self += v.logicalSize();
        }
        root.sum();
        long[] remaining = {root.total};
        return root.toModel(root.total, remaining);
    }

    /**
     * The dump printed a tree and it is for the peak: the dump labels the peak step, or labels none
     * (then the tree's step is unknown), or has no live ranges to rebuild one from.
     */
    static boolean usesDumpTree(HloModule m) {
        if (m.info().stackTrace() == null) return false;
        int p = Liveness.of(m).peakTime(), c = Liveness.of(m).claimedPeakTime();
        return p < 0 || c < 0 || p == c;
    }

    /** XLA's SplitParamsString: {@code params['layer/fc'].w} becomes {@code params, layer, fc, w}. */
    static List<String> splitParams(String s) {
        List<String> out = new ArrayList<>();
        Matcher v = VAR.matcher(s);
        if (!v.lookingAt()) return new ArrayList<>(List.of(s));
        out.add(v.group());
        int pos = v.end();
        boolean keys = false;
        while (pos < s.length()) {
            Matcher k = KEY.matcher(s).region(pos, s.length());
            if (k.lookingAt()) {
                keys = true;
                out.addAll(List.of(k.group(1).split("/", -1)));
                pos = k.end();
                continue;
            }
            Matcher a = ATTR.matcher(s).region(pos, s.length());
            if (a.lookingAt()) {
                out.add(a.group(1));
                pos = a.end();
                continue;
            }
            break;
        }
        if (pos != s.length() || !keys) return new ArrayList<>(List.of(s));
        return out;
    }

    /** Prints a tree as XLA does under {@code HloLiveRange}, header line included. */
    public static String render(StackTraceNode root, long headerBytes) {
        StringBuilder o = new StringBuilder("  Stack trace breakdown for peak usage: ")
                .append(Units.grouped(headerBytes, ' ')).append(" bytes\n");
        print(root, "  ", true, o);
        return o.toString();
    }

    private static void print(StackTraceNode n, String prefix, boolean last, StringBuilder o) {
        print(n, prefix, last, o, new int[] {Integer.MAX_VALUE}, new int[1]);
    }

    /** Prints while {@code left[0]} lines remain; counts the nodes left out in {@code cut[0]}. */
    private static void print(StackTraceNode n, String prefix, boolean last, StringBuilder o, int[] left, int[] cut) {
        if (left[0] <= 0) {
            cut[0] += size(n);
            return;
        }
        left[0]--;
        String connector = prefix.equals("  ") ? "  " : (last ? "└── " : "├── ");
        o.append(prefix).append(connector).append(n.label())
                .append(String.format(Locale.ROOT, " (%.1f%%, total: %s bytes, current: %s bytes, remaining: %s bytes)",
                        n.percent(), Units.grouped(n.total(), ' '), Units.grouped(n.current(), ' '), Units.grouped(n.remaining(), ' ')))
                .append('\n');
        List<StackTraceNode> kids = n.children();
        for (int i = 0; i < kids.size(); i++) print(kids.get(i), prefix + (last ? "    " : "│   "), i == kids.size() - 1, o, left, cut);
    }

    private static int size(StackTraceNode n) {
        int s = 1;
        for (StackTraceNode k : n.children()) s += size(k);
        return s;
    }

    private static final class Node {
        final String name;
        final Map<String, Node> children = new LinkedHashMap<>();
        long self, total;

        Node(String name) { this.name = name; }

        long sum() {
            total = self;
            for (Node c : children.values()) total += c.sum();
            return total;
        }

        StackTraceNode toModel(long all, long[] remaining) {
            remaining[0] -= self;
            long rem = remaining[0];
            double pct = all > 0 ? 100.0 * total / all : 0.0;
            List<Node> kids = new ArrayList<>(children.values());
            // XLA's order (ties by plain string order), so a rebuilt tree equals a printed one; display re-sorts.
            kids.sort(Comparator.comparingLong((Node k) -> k.total).reversed().thenComparing(k -> k.name));
            List<StackTraceNode> out = new ArrayList<>();
            for (Node k : kids) out.add(k.toModel(all, remaining));
            return new StackTraceNode(name, pct, total, self, rem, out);
        }
    }
}
