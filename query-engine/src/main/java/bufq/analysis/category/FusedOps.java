package bufq.analysis.category;

import bufq.model.HloInstruction;
import bufq.model.HloModule;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * What the instructions inside each fused computation say of their pass, read from the optimized
 * HLO text beside the dump ({@code ...after_optimizations.txt}, or {@code .txt.gz}): the buffer
 * assignment names a fusion and its outer op_name only, while the text holds the instructions it
 * fuses, each with its own op_name. Per output of a fused computation: whether it is computed from an
 * instruction JAX marks {@code transpose(} (the backward pass), whether any instruction it is
 * computed from is marked {@code jvp(} or {@code transpose(} (the differentiated function), and
 * whether any op_name says anything at all. Without the text, or for a computation it lacks, nothing
 * is known and the fusion's own op_name and operands decide. Read once per classification; each
 * computation's outputs are worked out on first ask.
 */
final class FusedOps {
    /**
     * What the instructions computing one output of a fusion say.
     *
     * @param named      some instruction it is computed from has an op_name
     * @param backward   some instruction it is computed from is marked {@code transpose(} (not a rematerialisation)
     * @param marked     some instruction it is computed from is marked {@code jvp(} or {@code transpose(}
     * @param recomputed some instruction it is computed from is a rematerialisation ({@code rematted_computation})
     */
    record Output(boolean named, boolean backward, boolean marked, boolean recomputed, BitSet reads) {
        static final Output NONE = new Output(false, false, false, false, new BitSet());

        Output or(Output o) {
            BitSet r = (BitSet) reads.clone();
            r.or(o.reads);
            return new Output(named || o.named, backward || o.backward, marked || o.marked, recomputed || o.recomputed, r);
        }

        /** Whether the output is computed from the fusion's operand {@code k} (its parameter {@code k}). */
        boolean reads(int k) { return k < 0 || reads.get(k); }
    }

    /** One instruction of a fused computation: its own op_name's marks, operands, called computation and root-ness. */
    private record Line(Output own, List<String> operands, String calls, boolean root, String opcode, int index) {}

    static final FusedOps NONE = new FusedOps(Map.of());

    private final Map<String, Map<String, Line>> computations;   // name -> instruction name -> line
    private final Map<String, Output[]> memo = new HashMap<>();

    private FusedOps(Map<String, Map<String, Line>> computations) { this.computations = computations; }

    /** The fused computations of {@code m}'s HLO text, or {@link #NONE} when the dump has no text beside it. */
    static FusedOps of(HloModule m) {
        for (Path p : candidates(m)) {
            if (!Files.isRegularFile(p)) continue;
            try (InputStream raw = Files.newInputStream(p);
                 InputStream in = p.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
                 BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
                return read(r);
            } catch (IOException | RuntimeException e) {
                return NONE;   // unreadable text: the fusions' own op_names decide, as without it
            }
        }
        return NONE;
    }

    /** The HLO text XLA writes beside a module's buffer assignment: its files' names cut after {@code after_optimizations}. */
    private static List<Path> candidates(HloModule m) {
        List<Path> out = new ArrayList<>();
        for (String f : m.info().files()) {
            int a = f.lastIndexOf("after_optimizations");
            if (a < 0) continue;
            String base = f.substring(0, a + "after_optimizations".length());
            if (base.length() == f.length() || f.charAt(base.length()) != '-' && f.charAt(base.length()) != '.') continue;
            out.add(Path.of(base + ".txt"));
            out.add(Path.of(base + ".txt.gz"));
        }
        return out;
    }

    /** Reads every computation but the entry one: {@code %name = shape opcode(operands), ..., calls=%c, metadata={op_name="..."}}. */
    static FusedOps read(BufferedReader r) throws IOException {
        Map<String, Map<String, Line>> comps = new HashMap<>();
        Map<String, Line> current = null;
        String line;
        while ((line = r.readLine()) != null) {
            if (line.isEmpty()) continue;
            if (!Character.isWhitespace(line.charAt(0))) {
                current = null;
                if (line.startsWith("ENTRY") || line.startsWith("HloModule") || !line.stripTrailing().endsWith("{")) continue;
                int s = line.charAt(0) == '%' ? 1 : 0, e = s;
                while (e < line.length() && !Character.isWhitespace(line.charAt(e))) e++;
                current = new HashMap<>();
                comps.put(line.substring(s, e), current);
                continue;
            }
            if (current == null) continue;
            parse(line.strip(), current);
        }
        return new FusedOps(comps);
    }

    /** {@code [ROOT ]%name = shape opcode(operands), attributes}: adds the instruction to {@code into}. */
    private static void parse(String s, Map<String, Line> into) {
        boolean root = s.startsWith("ROOT ");
        if (root) s = s.substring(5);
        int eq = s.indexOf(" = ");
        if (eq <= 0) return;
        String name = s.charAt(0) == '%' ? s.substring(1, eq) : s.substring(0, eq);
        HloInstruction.Text text = HloInstruction.Text.parse(s, eq + 3);
        if (text == null) return;
        String opcode = text.opcode();
        List<String> operands = text.operands();
        String rest = text.rest();
        String calls = after(rest, "calls=");
        String op = opName(rest);
        Output own = Output.NONE;
        if (op != null && !op.isEmpty()) {
            boolean remat = op.contains("rematted_computation"), t = false, jvp = false;
            for (String part : OpNames.split(op)) {
                if (OpNames.transposed(part)) t = true;
                if (OpNames.linearized(part) || OpNames.transposed(part)) jvp = true;
            }
            own = new Output(true, t && !remat, jvp, remat, new BitSet());
        }
        if ("parameter".equals(opcode)) {   // the fusion's operand of that number
            String k = text.inside().strip();
            if (!k.isEmpty() && k.chars().allMatch(Character::isDigit)) {
                BitSet b = new BitSet();
                b.set(Integer.parseInt(k));
                own = new Output(own.named(), own.backward(), own.marked(), own.recomputed(), b);
            }
        }
        String index = "get-tuple-element".equals(opcode) ? after(rest, "index=") : null;
        into.put(name, new Line(own, operands, calls, root, opcode, index == null || !index.chars().allMatch(Character::isDigit) ? -1 : Integer.parseInt(index)));
    }

    /** The name after {@code key} ({@code calls=%fused_computation.3}), without its {@code %}, or null. */
    private static String after(String rest, String key) {
        int k = rest.indexOf(key);
        if (k < 0) return null;
        int s = k + key.length();
        if (s < rest.length() && rest.charAt(s) == '%') s++;
        int e = s;
        while (e < rest.length() && ",} ".indexOf(rest.charAt(e)) < 0) e++;
        return e > s ? rest.substring(s, e) : null;
    }

    /** The {@code op_name="..."} of an instruction's metadata, unescaped, or null. */
    private static String opName(String rest) {
        int k = rest.indexOf("op_name=\"");
        if (k < 0) return null;
        StringBuilder b = new StringBuilder();
        for (int i = k + 9; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c == '\\' && i + 1 < rest.length()) b.append(rest.charAt(++i));
            else if (c == '"') return b.toString();
            else b.append(c);
        }
        return null;
    }


    /** Whether the text was read: some fused computation is known. */
    boolean known() { return !computations.isEmpty(); }

    /**
     * What the instructions computing output {@code index} ({@code {}}, {@code {1}}) of {@code fusion}
     * say, or null when {@code fusion} is no fusion of a computation the text holds.
     */
    Output of(HloInstruction fusion, String index) {
        if (fusion == null || !"fusion".equals(fusion.opcode())) return null;
        String c = Lineage.calls(fusion);
        if (c == null || !computations.containsKey(c)) return null;
        Output[] outs = outputs(c, 0);
        if (outs.length == 0) return null;
        if (outs.length == 1) return outs[0];
        int k = topIndex(index);
        if (k < 0) {   // the tuple's own table: what any of its outputs says
            Output all = Output.NONE;
            for (Output o : outs) all = all.or(o);
            return all;
        }
        return k < outs.length ? outs[k] : null;
    }

    /** {@code {1}} and {@code {1,0}} are 1; {@code {}} is -1. */
    private static int topIndex(String index) {
        if (index == null || index.length() < 3) return -1;
        int e = 1;
        while (e < index.length() && Character.isDigit(index.charAt(e))) e++;
        return e == 1 ? -1 : Integer.parseInt(index.substring(1, e));
    }

    /** Per output of computation {@code c} (one unless its root is a tuple), what its instructions say. */
    private Output[] outputs(String c, int depth) {
        Output[] known = memo.get(c);
        if (known != null) return known;
        Map<String, Line> comp = computations.get(c);
        if (comp == null || depth > 16) return new Output[0];
        Map<String, Output> done = new HashMap<>();
        Line root = null;
        String rootName = null;
        for (Map.Entry<String, Line> e : comp.entrySet()) if (e.getValue().root()) { root = e.getValue(); rootName = e.getKey(); }
        Output[] out;
        if (root == null) out = new Output[0];
        else if ("tuple".equals(root.opcode())) {
            out = new Output[root.operands().size()];
            for (int k = 0; k < out.length; k++) out[k] = mark(comp, root.operands().get(k), done, depth).or(root.own());
        } else out = new Output[] {mark(comp, rootName, done, depth)};
        memo.put(c, out);
        return out;
    }

    /**
     * A constant, or a broadcast or iota of nothing else: XLA shares one constant among the passes
     * (a reduction's zero marked {@code transpose(} starts a forward sum too), so its op_name says nothing.
     */
    private static boolean constant(Map<String, Line> comp, Line l) {
        if ("constant".equals(l.opcode()) || "iota".equals(l.opcode())) return true;
        if (!"broadcast".equals(l.opcode()) || l.operands().size() != 1) return false;
        Line o = comp.get(l.operands().get(0));
        return o != null && ("constant".equals(o.opcode()) || "iota".equals(o.opcode()));
    }

    /** What instruction {@code name} of {@code comp} and everything it is computed from inside the computation say. */
    private Output mark(Map<String, Line> comp, String name, Map<String, Output> done, int depth) {
        Output d = done.get(name);
        if (d != null) return d;
        done.put(name, Output.NONE);   // a cycle cannot occur in HLO; this only stops a malformed text
        Line l = comp.get(name);
        if (l == null || constant(comp, l)) return Output.NONE;
        Output o = l.own();
        Line callee = l;
        int pick = -1;
        Line of = l.index() >= 0 && l.operands().size() == 1 ? comp.get(l.operands().get(0)) : null;
        if (of != null && of.calls() != null) {   // one output of a nested fusion: what that output is computed from
            callee = of;
            pick = l.index();
            o = o.or(of.own());
        }
        Output[] outs = callee.calls() == null ? new Output[0] : outputs(callee.calls(), depth + 1);
        if (outs.length == 0) {
            for (String operand : callee.operands()) o = o.or(mark(comp, operand, done, depth));
        } else {
            for (int x = 0; x < outs.length; x++) {
                if (pick >= 0 && x != pick) continue;
                Output n = outs[x];
                o = o.or(new Output(n.named(), n.backward(), n.marked(), n.recomputed(), new BitSet()));
                // the called computation's parameters are the caller's operands
                for (int k = n.reads().nextSetBit(0); k >= 0; k = n.reads().nextSetBit(k + 1))
                    if (k < callee.operands().size()) o = o.or(mark(comp, callee.operands().get(k), done, depth));
            }
        }
        done.put(name, o);
        return o;
    }
}
