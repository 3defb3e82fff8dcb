package bufq.analysis.category;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * For tests: which entry parameter an array of a module holds an all-gathered copy of, traced on the
 * HLO itself and apart from the category classifier. From the optimized HLO text where the dump has
 * it (every computation, so a fusion's body says where its all-gather is and which outputs pass an
 * operand on); else from the {@code from instruction:} lines of the Used values section, with the
 * positions there standing for the get-tuple-elements, a fusion's {@code output_to_operand_aliasing}
 * for what it passes on, and (no body to read) the element of an {@code async-collective-start} that
 * is larger than its operand for the all-gather's result. Copies followed: copy, bitcast, convert,
 * reshape, transpose, slice, dynamic-slice, copy-start/-done, slice-start/-done, ConcatBitcast, tuples,
 * a while loop's carry, and fusions whose body does only those.
 */
final class GatherTrace {
    record Ins(String name, String shape, String opcode, List<String> operands, String attrs, boolean root, int pnum) {}

    /** The entry parameter a value copies ({@code null}: none) and whether an all-gather lies on the way. */
    record Source(Ins parameter, boolean gathered) {}

    private static final Source NONE = new Source(null, false);
    private static final Set<String> LAYOUT = Set.of("copy", "bitcast", "convert", "reshape", "transpose", "slice", "dynamic-slice",
            "bitcast-convert");
    private static final Pattern HEAD = Pattern.compile("^%?([\\w.\\-]+) = ");
    private static final Pattern OPERAND = Pattern.compile("%([\\w.\\-]+)");
    private static final Pattern ALIASED = Pattern.compile("\\{([\\d,]*)}: \\((\\d+), \\{}\\)");

    private final boolean text;
    private final Map<String, List<Ins>> comps = new HashMap<>();
    private String entry = "?";
    private final Map<String, Ins> at = new HashMap<>();
    private final Map<String, String> compOf = new HashMap<>();
    private final Map<String, Ins> root = new HashMap<>();
    private final Map<String, String[]> loopOf = new HashMap<>();   // while body -> {computation, while name}
    private final Map<String, Object[]> positions = new HashMap<>(); // position -> {defining name, index}
    private final Map<String, Source> memo = new HashMap<>();

    GatherTrace(Path hloText, Path valuesFile) throws IOException {
        text = hloText != null;
        if (text) readText(hloText);
        else readValues(valuesFile);
        for (Map.Entry<String, List<Ins>> c : comps.entrySet()) {
            Ins r = null;
            for (Ins i : c.getValue()) {
                at.put(c.getKey() + "\u0000" + i.name(), i);
                compOf.putIfAbsent(i.name(), c.getKey());
                if (i.root()) r = i;
                if (i.opcode().equals("while")) {
                    Matcher b = Pattern.compile("body=%([\\w.\\-]+)").matcher(i.attrs());
                    if (b.find()) loopOf.put(b.group(1), new String[] {c.getKey(), i.name()});
                }
            }
            if (r == null && !c.getValue().isEmpty()) r = c.getValue().get(c.getValue().size() - 1);
            root.put(c.getKey(), r);
        }
    }

    boolean fromText() { return text; }

    /** What value {@code name{index}} of the dump copies, or {@link #NONE}. */
    Source of(String name, List<Integer> index) {
        String c = compOf.get(name);
        return c == null ? NONE : src(c, at.get(c + "\u0000" + name), index);
    }

    private static BufferedReader open(Path p) throws IOException {
        InputStream in = Files.newInputStream(p);
        if (p.toString().endsWith(".gz")) in = new GZIPInputStream(in, 1 << 16);
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    private void readText(Path p) throws IOException {
        try (BufferedReader r = open(p)) {
            String line, cur = null;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("HloModule")) continue;
                if (!line.startsWith(" ") && line.stripTrailing().endsWith("{")) {
                    Matcher m = Pattern.compile("^(?:ENTRY )?%?([\\w.\\-]+)").matcher(line);
                    if (!m.find()) continue;
                    cur = m.group(1);
                    comps.put(cur, new ArrayList<>());
                    if (line.startsWith("ENTRY")) entry = cur;
                } else if (line.startsWith("}")) cur = null;
                else if (cur != null && line.contains(" = ")) {
                    Ins i = parse(line);
                    if (i != null) comps.get(cur).add(i);
                }
            }
        }
    }

    private void readValues(Path p) throws IOException {
        List<Ins> all = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        Pattern head = Pattern.compile("^<\\d+ ([\\w.\\-]+)(\\{[\\d,]*})? @\\d+>");
        try (BufferedReader r = open(p)) {
            String line;
            Object[] cur = null;
            boolean inPositions = false;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("<")) {
                    Matcher m = head.matcher(line);
                    cur = m.find() ? new Object[] {m.group(1), index(m.group(2) == null ? "{}" : m.group(2))} : null;
                    inPositions = false;
                } else if (line.startsWith(" positions:")) inPositions = true;
                else if (line.startsWith(" uses:")) inPositions = false;
                else if (line.startsWith(" from instruction: ")) {
                    inPositions = false;
                    Ins i = parse(line.substring(" from instruction: ".length()));
                    if (i != null && seen.add(i.name())) all.add(i);
                } else if (inPositions && cur != null && line.startsWith("  ")) {
                    String[] t = line.strip().split(" ");
                    if (t.length == 1 || t[1].equals("{}")) positions.putIfAbsent(t[0], cur);
                }
            }
        }
        comps.put("?", all);
    }

    static List<Integer> index(String braces) {
        List<Integer> out = new ArrayList<>();
        String s = braces.substring(1, braces.length() - 1);
        if (!s.isBlank()) for (String x : s.split(",")) out.add(Integer.parseInt(x.strip()));
        return out;
    }

    /** {@code [ROOT] %name = shape opcode(operands), attributes}. */
    static Ins parse(String line) {
        String s = line.strip();
        boolean isRoot = s.startsWith("ROOT ");
        if (isRoot) s = s.substring(5);
        Matcher m = HEAD.matcher(s);
        if (!m.find()) return null;
        String name = m.group(1);
        s = s.substring(m.end());
        String shape;
        if (s.startsWith("(")) {
            int e = close(s, 0, '(', ')');
            if (e < 0) return null;
            shape = s.substring(0, e + 1);
            s = s.substring(e + 1).stripLeading();
        } else {
            int k = s.indexOf(' ');
            if (k < 0) return null;
            shape = s.substring(0, k);
            s = s.substring(k + 1);
        }
        int k = s.indexOf('(');
        if (k < 0) return null;
        int e = close(s, k, '(', ')');
        if (e < 0) return null;
        String ops = s.substring(k + 1, e);
        List<String> operands = new ArrayList<>();
        Matcher o = OPERAND.matcher(ops);
        while (o.find()) operands.add(o.group(1));
        String opcode = s.substring(0, k);
        int pnum = opcode.equals("parameter") && ops.strip().matches("\\d+") ? Integer.parseInt(ops.strip()) : -1;
        return new Ins(name, shape, opcode, operands, s.substring(e + 1), isRoot, pnum);
    }

    private static int close(String s, int from, char open, char close) {
        int d = 0;
        for (int j = from; j < s.length(); j++) {
            if (s.charAt(j) == open) d++;
            else if (s.charAt(j) == close && --d == 0) return j;
        }
        return -1;
    }

    private Source src(String c, Ins i, List<Integer> idx) {
        if (i == null) return NONE;
        String key = c + "\u0000" + i.name() + idx;
        Source known = memo.get(key);
        if (known != null) return known;
        memo.put(key, NONE);   // a cycle copies nothing
        Source r = trace(c, i, idx);
        memo.put(key, r);
        return r;
    }

    private Source up(String c, Ins i, int k, List<Integer> idx, boolean gathered) {
        if (k >= i.operands().size()) return NONE;
        String n = i.operands().get(k);
        Ins o = at.get(c + "\u0000" + n);
        Object[] p = text ? null : positions.get(n);
        if (p != null && !p[0].equals(n)) {
            o = at.get(c + "\u0000" + p[0]);
            @SuppressWarnings("unchecked") List<Integer> pi = (List<Integer>) p[1];
            idx = concat(pi, idx);
        }
        if (o == null) return NONE;
        Source s = src(c, o, idx);
        return gathered && s.parameter() != null ? new Source(s.parameter(), true) : s;
    }

    private static List<Integer> concat(List<Integer> a, List<Integer> b) {
        List<Integer> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static List<Integer> tail(List<Integer> idx) { return idx.subList(1, idx.size()); }

    private Source trace(String c, Ins i, List<Integer> idx) {
        String opc = i.opcode();
        switch (opc) {
            case "parameter": {
                boolean entryParameter = text ? c.equals(entry) : i.attrs().contains("op_name=\"") && !i.name().startsWith("param_");
                if (entryParameter) return idx.isEmpty() ? new Source(i, false) : NONE;
                String[] loop = loopOf.get(c);
                if (loop != null && !idx.isEmpty()) return up(loop[0], at.get(loop[0] + "\u0000" + loop[1]), 0, idx, false);
                return NONE;
            }
            case "get-tuple-element": return up(c, i, 0, concat(List.of(gteIndex(i)), idx), false);
            case "tuple": return idx.isEmpty() ? NONE : up(c, i, idx.get(0), tail(idx), false);
            case "copy-start": return !idx.isEmpty() && idx.get(0) <= 1 ? up(c, i, 0, tail(idx), false) : NONE;   // (dest, source, context)
            case "copy-done": return up(c, i, 0, concat(List.of(0), idx), false);
            case "async-start":   // ((operands), output, context): a slice of its operand
                if (idx.size() == 1 && idx.get(0) == 1) return up(c, i, 0, List.of(), false);
                return NONE;
            case "async-done": return up(c, i, 0, concat(List.of(1), idx), false);
            case "all-gather", "all-gather-start":
                if (i.operands().size() > 1) return idx.isEmpty() ? NONE : up(c, i, idx.get(0), List.of(), true);
                return up(c, i, 0, List.of(), true);
            case "all-gather-done": return up(c, i, 0, idx, false);
            case "custom-call": {
                if (!i.attrs().contains("custom_call_target=\"ConcatBitcast\"")) return NONE;
                String one = null;
                for (int k = 0; k < i.operands().size(); k++) {
                    Source s = up(c, i, k, List.of(), false);
                    if (s.parameter() == null || (one != null && !one.equals(s.parameter().name()))) return NONE;
                    one = s.parameter().name();
                }
                return up(c, i, 0, List.of(), false);
            }
            case "fusion": return fusion(c, i, idx);
            default: return LAYOUT.contains(opc) ? up(c, i, 0, idx, false) : NONE;
        }
    }

    private Source fusion(String c, Ins i, List<Integer> idx) {
        String b = called(i);
        if (text && b != null && comps.containsKey(b)) {
            int[] r = body(b, root.get(b), idx, false);
            return r == null ? NONE : up(c, i, r[0], List.of(), r[1] == 1);
        }
        Map<List<Integer>, Integer> aliased = aliasing(i);
        if (aliased.containsKey(idx)) return up(c, i, aliased.get(idx), List.of(), false);
        if (i.name().startsWith("async-collective-start") && idx.size() == 1
                && grows(element(i.shape(), List.of(0)), element(i.shape(), idx))) return up(c, i, 0, List.of(), true);
        return NONE;
    }

    /** In fusion body {@code b}: the parameter number output {@code idx} of {@code i} copies, and 1 where gathered; null for none. */
    private int[] body(String b, Ins i, List<Integer> idx, boolean g) {
        if (i == null) return null;
        String opc = i.opcode();
        if (opc.equals("parameter")) return idx.isEmpty() ? new int[] {i.pnum(), g ? 1 : 0} : null;
        if (opc.equals("tuple")) return idx.isEmpty() ? null : bodyUp(b, i, idx.get(0), tail(idx), g);
        if (opc.equals("get-tuple-element")) return bodyUp(b, i, 0, concat(List.of(gteIndex(i)), idx), g);
        if (LAYOUT.contains(opc) && idx.isEmpty()) return bodyUp(b, i, 0, List.of(), g);
        if (opc.equals("all-gather")) {
            if (i.operands().size() > 1 && idx.isEmpty()) return null;
            return bodyUp(b, i, idx.isEmpty() ? 0 : idx.get(0), List.of(), true);
        }
        if (opc.equals("custom-call") && i.attrs().contains("custom_call_target=\"AsyncCollective")) {
            String es = element(i.shape(), idx);
            for (String n : i.operands()) {   // the all-gather's result, an operand handed on, or the shard it gathers
                Ins o = at.get(b + "\u0000" + n);
                if (o != null && o.opcode().equals("all-gather") && sameDims(o.shape(), es)) return body(b, o, List.of(), g);
            }
            for (String n : i.operands()) {
                Ins o = at.get(b + "\u0000" + n);
                if (o != null && o.opcode().equals("parameter") && sameDims(o.shape(), es)) return body(b, o, List.of(), g);
            }
            for (String n : i.operands()) {
                Ins o = at.get(b + "\u0000" + n);
                if (o == null || !o.opcode().equals("all-gather") || o.operands().isEmpty()) continue;
                Ins x = at.get(b + "\u0000" + o.operands().get(0));
                if (x != null && sameDims(x.shape(), es)) return body(b, x, List.of(), g);
            }
            return null;
        }
        if (opc.equals("fusion") && idx.isEmpty()) {
            String bb = called(i);
            if (bb != null && comps.containsKey(bb)) {
                int[] r = body(bb, root.get(bb), List.of(), false);
                if (r != null) return bodyUp(b, i, r[0], List.of(), g || r[1] == 1);
            }
        }
        return null;
    }

    private int[] bodyUp(String b, Ins i, int k, List<Integer> idx, boolean g) {
        if (k >= i.operands().size()) return null;
        return body(b, at.get(b + "\u0000" + i.operands().get(k)), idx, g);
    }

    private static int gteIndex(Ins i) {
        Matcher m = Pattern.compile("index=(\\d+)").matcher(i.attrs());
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static String called(Ins i) {
        Matcher m = Pattern.compile("calls=%([\\w.\\-]+)").matcher(i.attrs());
        return m.find() ? m.group(1) : null;
    }

    private static Map<List<Integer>, Integer> aliasing(Ins i) {
        Map<List<Integer>, Integer> out = new HashMap<>();
        int k = i.attrs().indexOf("output_to_operand_aliasing={");
        if (k < 0) return out;
        int end = i.attrs().indexOf(")}", k);
        Matcher m = ALIASED.matcher(i.attrs().substring(k, end < 0 ? i.attrs().length() : end + 2));
        while (m.find()) out.put(index("{" + m.group(1) + "}"), Integer.parseInt(m.group(2)));
        return out;
    }

    /** The element of a tuple shape's text at {@code idx}, or null. */
    static String element(String shape, List<Integer> idx) {
        for (int k : idx) {
            if (shape == null || !shape.startsWith("(")) return null;
            List<String> parts = new ArrayList<>();
            String s = shape.replaceAll("/\\*index=\\d+\\*/", "");
            int d = 0, from = 1;
            for (int j = 1; j < s.length() - 1; j++) {
                char ch = s.charAt(j);
                if (ch == '(' || ch == '[' || ch == '{') d++;
                else if (ch == ')' || ch == ']' || ch == '}') d--;
                else if (ch == ',' && d == 0) { parts.add(s.substring(from, j).strip()); from = j + 1; }
            }
            parts.add(s.substring(from, s.length() - 1).strip());
            if (k >= parts.size()) return null;
            shape = parts.get(k);
        }
        return shape;
    }

    /** {@code bf16[1024,4096]...} -> {@code bf16[1024,4096]}, or null for a tuple or nothing. */
    static String dims(String shape) {
        if (shape == null) return null;
        Matcher m = Pattern.compile("^(\\w+\\[[\\d,]*])").matcher(shape);
        return m.find() ? m.group(1) : null;
    }

    private static boolean sameDims(String a, String b) { return dims(a) != null && dims(a).equals(dims(b)); }

    /** {@code b} is {@code a} with one dimension a whole multiple larger: what an all-gather makes. */
    static boolean grows(String a, String b) {
        String x = dims(a), y = dims(b);
        if (x == null || y == null || !x.substring(0, x.indexOf('[')).equals(y.substring(0, y.indexOf('[')))) return false;
        List<Integer> p = index("{" + x.substring(x.indexOf('[') + 1, x.length() - 1) + "}");
        List<Integer> q = index("{" + y.substring(y.indexOf('[') + 1, y.length() - 1) + "}");
        if (p.size() != q.size() || p.isEmpty()) return false;
        int grown = 0;
        for (int d = 0; d < p.size(); d++) {
            if (p.get(d).equals(q.get(d))) continue;
            if (q.get(d) <= p.get(d) || q.get(d) % p.get(d) != 0) return false;
            grown++;
        }
        return grown == 1;
    }
}
