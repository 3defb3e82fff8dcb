package bufq.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A module's dump files read line by line with regular expressions, apart from bufq's reader: the
 * schedule, BufferLiveRange, allocation flags and each value's positions and uses as printed. Tests
 * hold bufq's derived answers (why a range ends, idle stretches, occupancy) to this text.
 */
final class RawDump {
    /** A Used-values block: its positions' and users' instruction names, and its defining opcode. */
    record Value(long id, String key, List<String> positions, List<String> users, String opcode) {}

    int maxTime = -1;
    final List<String> sequence = new ArrayList<>();
    final Map<String, Integer> time = new HashMap<>();
    final Map<String, int[]> ranges = new HashMap<>();
    final Map<Long, Value> values = new LinkedHashMap<>();
    final Map<Long, String> allocationOf = new HashMap<>();
    final Map<Long, long[]> placement = new HashMap<>();   // id -> {allocation, offset, size}
    final Map<String, String> opcodeOf = new HashMap<>();

    private static final Pattern HEADER = Pattern.compile("^<(\\d+) (\\S+?)(\\{[0-9,]*\\})?( \\(phi\\))? @\\d+>$");
    private static final Pattern ALLOC = Pattern.compile("^allocation (\\d+): (.*):$");
    private static final Pattern ALLOC_VALUE = Pattern.compile("^ value: <(\\d+) [^>]*> \\(size=(\\d+),offset=(\\d+)\\)");
    private static final Pattern SEQ = Pattern.compile("^\\s+(\\d+):(\\S+)$");
    private static final Pattern RANGE = Pattern.compile("^\\s+(\\S+):(\\d+)-(\\d+)$");
    private static final Pattern USE = Pattern.compile("^  (\\S+), operand \\d+");
    private static final Pattern DEF = Pattern.compile("^ from instruction: %(\\S+) = .*?[ )\\]}]([a-z][a-z0-9-]*)\\(");

    static RawDump read(List<String> files) throws IOException {
        RawDump d = new RawDump();
        for (String f : files) d.scan(Files.readAllLines(Path.of(f), StandardCharsets.UTF_8));
        return d;
    }

    private void scan(List<String> lines) {
        String mode = "", alloc = null;
        long allocIndex = -1;
        long cur = -1;
        String curKey = null;
        List<String> pos = null, users = null;
        for (String l : lines) {
            Matcher m;
            if (l.startsWith("HloLiveRange (max ")) {
                maxTime = Integer.parseInt(l.substring(18, l.indexOf(')')));
                continue;
            }
            String s = l.strip();
            if (s.equals("InstructionSequence:")) { mode = "seq"; continue; }
            if (s.equals("BufferLiveRange:")) { mode = "range"; continue; }
            if (s.startsWith("Live ranges at") || s.startsWith("Stack trace")) { mode = ""; continue; }
            if (mode.equals("seq") && (m = SEQ.matcher(l)).matches()) {
                sequence.add(m.group(2));
                time.put(m.group(2), Integer.parseInt(m.group(1)));
                continue;
            }
            if (mode.equals("range") && (m = RANGE.matcher(l)).matches()) {
                ranges.put(m.group(1), new int[] {Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))});
                continue;
            }
            if ((m = ALLOC.matcher(l)).matches()) {
                allocIndex = Long.parseLong(m.group(1));
                alloc = m.group(2);
                mode = "";
                continue;
            }
            if ((m = ALLOC_VALUE.matcher(l)).find() && alloc != null) {
                long id = Long.parseLong(m.group(1));
                allocationOf.putIfAbsent(id, alloc);
                placement.putIfAbsent(id, new long[] {allocIndex, Long.parseLong(m.group(3)), Long.parseLong(m.group(2))});
                continue;
            }
            if ((m = HEADER.matcher(l)).matches()) {
                cur = Long.parseLong(m.group(1));
                curKey = m.group(2) + (m.group(3) == null ? "{}" : m.group(3));
                pos = new ArrayList<>();
                users = new ArrayList<>();
                mode = "value";
                continue;
            }
            if (mode.startsWith("value") || mode.equals("pos") || mode.equals("use")) {
                if (l.equals(" positions:")) { mode = "pos"; continue; }
                if (l.equals(" uses:")) { mode = "use"; continue; }
                if (l.startsWith(" from instruction:")) {
                    m = DEF.matcher(l);
                    String opcode = null;
                    if (m.find()) {
                        opcode = m.group(2);
                        opcodeOf.putIfAbsent(m.group(1), opcode);
                    }
                    values.putIfAbsent(cur, new Value(cur, curKey, pos, users, opcode));
                    mode = "";
                    continue;
                }
                if (mode.equals("pos") && l.startsWith("  ")) pos.add(l.strip().split(" ")[0]);
                if (mode.equals("use") && (m = USE.matcher(l)).find()) users.add(m.group(1));
            }
        }
    }

    /** The live range {start, end} of a value, or null. */
    int[] range(Value v) { return ranges.get(v.key()); }

    /** Step of an instruction, or -1. */
    int step(String instruction) { return time.getOrDefault(instruction, -1); }

    /**
     * Occupied bytes at every step 0..maxTime: per allocation, the union of the byte ranges
     * {@code [offset, offset + size)} of the values live there, each byte once (a plain scan).
     */
    long[] occupancy() {
        long[] out = new long[maxTime + 1];
        for (int t = 0; t <= maxTime; t++) {
            Map<Long, List<long[]>> spans = new HashMap<>();
            for (Map.Entry<Long, long[]> e : placement.entrySet()) {
                Value v = values.get(e.getKey());
                int[] r = v == null ? null : ranges.get(v.key());
                long[] p = e.getValue();
                if (r != null && r[0] <= t && t <= r[1] && p[2] > 0)
                    spans.computeIfAbsent(p[0], k -> new ArrayList<>()).add(new long[] {p[1], p[1] + p[2]});
            }
            long total = 0;
            for (List<long[]> list : spans.values()) {
                list.sort((a, b) -> Long.compare(a[0], b[0]));
                long end = Long.MIN_VALUE;
                for (long[] s : list) {
                    if (s[0] > end) { total += s[1] - s[0]; end = s[1]; }
                    else if (s[1] > end) { total += s[1] - end; end = s[1]; }
                }
            }
            out[t] = total;
        }
        return out;
    }
}
