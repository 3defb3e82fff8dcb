package bufq.analysis;

import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.StackTraceNode;

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
     * Rebuilds the tree over the values live at the peak (the module's liveness peakTime),
     * each weighing its logical size; the root is named after the module. The dump does not say which
     * computation an instruction belongs to, so unlike XLA's tree a rebuilt one does not nest values of
     * while bodies under their loop. Null without live ranges.
     */
    public static StackTraceNode rebuild(HloModule m) { return rebuild(m, m.liveness().peakTime()); }

    /** The tree over the values live at step {@code t}, as {@link #rebuild(HloModule)} builds it; null when {@code t < 0}. */
    public static StackTraceNode rebuild(HloModule m, int t) {
        if (t < 0) return null;
        Node root = new Node(m.info().name() == null ? m.handle() : m.info().name());
        for (HloValue v : m.liveAt(t)) {
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
        int p = m.liveness().peakTime(), c = m.liveness().claimedPeakTime();
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
                .append(Bytes.grouped(headerBytes)).append(" bytes\n");
        print(root, "  ", true, o);
        return o.toString();
    }

    private static void print(StackTraceNode n, String prefix, boolean last, StringBuilder o) {
        String connector = prefix.equals("  ") ? "  " : (last ? "└── " : "├── ");
        o.append(prefix).append(connector).append(n.label())
                .append(String.format(Locale.ROOT, " (%.1f%%, total: %s bytes, current: %s bytes, remaining: %s bytes)",
                        n.percent(), Bytes.grouped(n.total()), Bytes.grouped(n.current()), Bytes.grouped(n.remaining())))
                .append('\n');
        List<StackTraceNode> kids = n.children();
        for (int i = 0; i < kids.size(); i++) print(kids.get(i), prefix + (last ? "    " : "│   "), i == kids.size() - 1, o);
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
            kids.sort(Comparator.comparingLong((Node k) -> k.total).reversed().thenComparing(k -> k.name));
            List<StackTraceNode> out = new ArrayList<>();
            for (Node k : kids) out.add(k.toModel(all, remaining));
            return new StackTraceNode(name, pct, total, self, rem, out);
        }
    }
}
