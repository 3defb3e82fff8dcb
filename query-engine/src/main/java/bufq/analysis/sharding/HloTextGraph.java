package bufq.analysis.sharding;

import bufq.model.HloInstruction;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The instructions of an optimized HLO text as a graph: each instruction's computation, result
 * shape, opcode, operands, called computation and tuple index, and who reads it. Only what tracing
 * a collective to the parameter it carries needs; attributes beyond those are not kept.
 */
final class HloTextGraph {
    /** One instruction. {@code shape} is its result's text ({@code bf16[256,1024]{1,0:T(8,128)}} or a tuple). */
    record Instruction(String name, String computation, String shape, String opcode, List<String> operands, String calls,
                       int index, String replicaGroups) {}

    private static final Pattern HEADER = Pattern.compile("^(ENTRY\\s+)?%?([\\w.\\-]+)\\s.*\\{\\s*$");
    private static final Pattern NAME = Pattern.compile("^\\s*(?:ROOT\\s+)?%?([\\w.\\-]+)\\s*=\\s*");
    private static final Pattern CALLS = Pattern.compile("calls=%?([\\w.\\-]+)");
    private static final Pattern INDEX = Pattern.compile("\\bindex=(\\d+)");
    private static final Pattern ARRAY = Pattern.compile("(\\w+)\\[([\\d,]*)\\]");

    final Map<String, Instruction> byName = new java.util.LinkedHashMap<>();
    final Map<String, List<Instruction>> users = new HashMap<>();
    String entry;

    static HloTextGraph read(BufferedReader r) throws IOException {
        HloTextGraph g = new HloTextGraph();
        String line, computation = null;
        while ((line = r.readLine()) != null) {
            if (line.isEmpty() || line.startsWith("HloModule")) continue;
            if (!Character.isWhitespace(line.charAt(0))) {
                Matcher h = HEADER.matcher(line);
                if (h.find()) {
                    computation = h.group(2);
                    if (h.group(1) != null) g.entry = computation;
                }
                continue;
            }
            Matcher n = NAME.matcher(line);
            if (!n.find() || computation == null) continue;
            Instruction ins = parse(n.group(1), computation, line, n.end());
            if (ins == null) continue;
            g.byName.put(ins.name(), ins);
            for (String o : ins.operands()) g.users.computeIfAbsent(o, k -> new ArrayList<>()).add(ins);
        }
        return g;
    }

    private static Instruction parse(String name, String computation, String line, int at) {
        HloInstruction.Text text = HloInstruction.Text.parse(line, at);
        if (text == null) return null;
        String shape = text.shape(), opcode = text.opcode(), rest = text.rest();
        List<String> operands = text.operands();
        Matcher c = CALLS.matcher(rest);
        Matcher i = INDEX.matcher(rest);
        String groups = null;
        int g = rest.indexOf("replica_groups=");
        if (g >= 0) {
            int e = rest.indexOf(", ", g);
            groups = rest.substring(g + "replica_groups=".length(), e < 0 ? rest.length() : e);
        }
        return new Instruction(name, computation, shape, opcode, operands, c.find() ? c.group(1) : null,
                opcode.equals("get-tuple-element") && i.find() ? Integer.parseInt(i.group(1)) : -1, groups);
    }


    /** The arrays of a shape's text, in order: one for an array, one per leaf for a tuple. */
    static List<long[]> arrays(String shape) {
        List<long[]> out = new ArrayList<>();
        Matcher m = ARRAY.matcher(shape);
        while (m.find()) {
            // a layout's tiles, T(8,128), follow a ':' inside braces and are no array
            int brace = shape.lastIndexOf('{', m.start()), end = shape.lastIndexOf('}', m.start());
            if (brace > end) continue;
            String d = m.group(2);
            long[] dims = d.isEmpty() ? new long[0] : java.util.Arrays.stream(d.split(",")).mapToLong(Long::parseLong).toArray();
            out.add(dims);
        }
        return out;
    }

    /** The readers of {@code name}. */
    List<Instruction> users(String name) {
        return users.getOrDefault(name, List.of());
    }
}
