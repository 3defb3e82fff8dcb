package bufq.analysis.category;

import bufq.dump.DumpLoader;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code blame by category} on the named Adam step ({@code train/mlp-adam}, copied into the checkout)
 * held to the dump's own lines, read here apart from bufq's readers: the weights and optimizer rows
 * are the bytes of the entry parameters under {@code params} and {@code opt_state} live at the peak.
 */
class MlpAdamCategoriesTest {
    static Path dir;
    static HloModule m;

    @BeforeAll
    static void load() throws Exception {
        dir = Corpus.require("jax-0.10.2/train/mlp-adam");
        m = DumpLoader.load(List.of(dir)).get(0);
    }

    /** A value as the dump's lines give it. */
    record Line(String label, int allocation, long offset, long size, boolean parameterAllocation) {}

    static Path file(String end) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(end)).findFirst().orElseThrow();
        }
    }

    /** Values of the allocation section: {@code value: <ID NAME @C> (size=S,offset=O)} under each {@code allocation K: ...} line. */
    static List<Line> values() throws IOException {
        Pattern alloc = Pattern.compile("^allocation (\\d+): .*");
        Pattern value = Pattern.compile("^ value: <\\d+ (\\S+) @\\d+> \\(size=(\\d+),offset=(\\d+)\\).*");
        List<Line> out = new ArrayList<>();
        int a = -1;
        boolean param = false;
        for (String line : Files.readAllLines(file("-buffer-assignment.txt"))) {
            Matcher x = alloc.matcher(line);
            if (x.matches()) {
                a = Integer.parseInt(x.group(1));
                param = line.contains(", parameter ");
                continue;
            }
            Matcher v = value.matcher(line);
            String key = v.matches() && v.group(1).endsWith("}") ? v.group(1) : v.matches() ? v.group(1) + "{}" : null;
            if (key != null) out.add(new Line(key, a, Long.parseLong(v.group(3)), Long.parseLong(v.group(2)), param));
        }
        return out;
    }

    /** {@code NAME{INDEX}:START-END} of the BufferLiveRange section, by name and index. */
    static Map<String, int[]> ranges() throws IOException {
        Pattern range = Pattern.compile("^    (\\S+?\\{[^}]*}):(\\d+)-(\\d+)$");
        Map<String, int[]> out = new HashMap<>();
        for (String line : Files.readAllLines(file("-live-range.txt"))) {
            Matcher r = range.matcher(line);
            if (r.matches()) out.put(r.group(1), new int[] {Integer.parseInt(r.group(2)), Integer.parseInt(r.group(3))});
        }
        return out;
    }

    /** The op_name of each value made by a {@code parameter(N)} instruction, from the Used values blocks. */
    static Map<String, String> parameterPaths() throws IOException {
        Pattern ins = Pattern.compile("^ from instruction: %(\\S+) = .* parameter\\(\\d+\\), metadata=\\{op_name=\"(.*?)\"( .*)?}$");
        Map<String, String> out = new HashMap<>();
        for (String line : Files.readAllLines(file("-buffer-assignment-values.txt"))) {
            Matcher i = ins.matcher(line);
            if (i.matches()) out.put(i.group(1), i.group(2).replace("\\'", "'"));
        }
        return out;
    }

    /** The first step with the most bytes held: per allocation, the union of its live values' byte ranges. */
    static int peak(List<Line> values, Map<String, int[]> ranges, int steps) {
        long best = -1;
        int at = -1;
        for (int t = 0; t < steps; t++) {
            long held = held(values, ranges, t);
            if (held > best) { best = held; at = t; }
        }
        return at;
    }

    static long held(List<Line> values, Map<String, int[]> ranges, int t) {
        Map<Integer, List<long[]>> byAllocation = new TreeMap<>();
        for (Line v : values) {
            int[] r = ranges.get(v.label());
            if (r != null && r[0] <= t && t <= r[1])
                byAllocation.computeIfAbsent(v.allocation(), k -> new ArrayList<>()).add(new long[] {v.offset(), v.offset() + v.size()});
        }
        long total = 0;
        for (List<long[]> spans : byAllocation.values()) {
            spans.sort((x, y) -> Long.compare(x[0], y[0]));
            long end = Long.MIN_VALUE;
            for (long[] s : spans) {
                if (s[1] > end) total += s[1] - Math.max(s[0], end);
                end = Math.max(end, s[1]);
            }
        }
        return total;
    }

    static long row(Table t, String category) {
        for (int r = 0; r < t.size(); r++) if (t.cell(r, 0).equals(category)) return (Long) t.cell(r, 1);
        throw new AssertionError("no row " + category);
    }

    @Test
    void weightsAndOptimizerRowsAreTheLiveParametersUnderTheirRoots() throws Exception {
        List<Line> values = values();
        Map<String, int[]> ranges = ranges();
        Map<String, String> paths = parameterPaths();
        int steps = m.steps();
        int t = peak(values, ranges, steps);
        assertEquals(Liveness.of(m).peakTime(), t, "the peak found from the dump's lines");
        long weights = 0, optimizer = 0;
        int weightValues = 0, optimizerValues = 0;
        for (Line v : values) {
            String path = paths.get(v.label().substring(0, v.label().indexOf('{')));
            int[] r = ranges.get(v.label());
            if (path == null || !v.parameterAllocation() || r == null || r[0] > t || t > r[1]) continue;
            // An entry parameter is born first in its allocation (step 0): it holds all its bytes.
            assertEquals(0, r[0], v.label());
            if (path.startsWith("params")) { weights += v.size(); weightValues++; }
            if (path.startsWith("opt_state")) { optimizer += v.size(); optimizerValues++; }
        }
        assertTrue(weights > 0 && optimizer > weights, weights + " " + optimizer);
        Table table = (Table) Categories.blame(m, CategoryRules.NONE, t, "peak").get(0);
        // and XLA's three 4 MiB copies of params[1..3]['w'] (copy.3 = copy(params_1___w__.1), no op_name) are weights too
        long copies = 3L * 4 * 1024 * 1024;
        assertEquals(weights + copies, row(table, "weights"));
        assertEquals(optimizer, row(table, "optimizer"));
        assertEquals(weights + copies, Categories.bytesAt(m, CategoryRules.NONE, t).get("weights"));
        assertEquals(24L * 1024 * 1024 + 6 * 4096, optimizer, "six 1024x1024 f32 moments and six biases' live at the peak");
        assertEquals(4, weightValues);
        assertEquals(12, optimizerValues);
    }

    @Test
    void theRowsAddUpToTheBytesHeldAtEveryStep() throws Exception {
        List<Line> values = values();
        Map<String, int[]> ranges = ranges();
        for (int t = 0; t < m.steps(); t += 7) {
            long sum = 0;
            for (long b : Categories.bytesAt(m, CategoryRules.NONE, t).values()) sum += b;
            assertEquals(held(values, ranges, t), sum, "step " + t);
        }
    }

    @Test
    void everyCategoryOfTheStepHasARowWithItsValuesStatementAndLargest() {
        int t = Liveness.of(m).peakTime();
        Table table = (Table) Categories.blame(m, CategoryRules.NONE, t, "peak").get(0);
        List<String> names = new ArrayList<>();
        for (int r = 0; r < table.size(); r++) names.add((String) table.cell(r, 0));
        assertTrue(names.containsAll(List.of("weights", "optimizer", "inputs", "outputs", "residuals", "gradients", "collectives",
                "constants", "temporaries")), names.toString());
        int statement = table.columnIndex("statement"), largest = table.columnIndex("largest");
        for (int r = 0; r < table.size(); r++) {
            assertEquals("values where category = \"" + table.cell(r, 0) + "\" and live at peak", table.cell(r, statement));
        }
        assertEquals("opt_state_0__mu_0___w__.1", table.cell(names.indexOf("optimizer"), largest));
        assertEquals("batch.1", table.cell(names.indexOf("inputs"), largest));
        // The forward pass's activations still held for the backward pass.
        assertEquals(3L, table.cell(names.indexOf("residuals"), table.columnIndex("values")));
        // The new parameters and moments are written into the donated buffers.
        String outputs = (String) table.cell(names.indexOf("outputs"), table.columnIndex("rule"));
        assertTrue(outputs.contains("in donated parameter buffers"), outputs);
    }

    @Test
    void pathsFoldTheLayersAndMomentsAndAddUp() {
        int t = Liveness.of(m).peakTime();
        Table p = (Table) Categories.paths(m, CategoryRules.NONE, t, "peak", 0).get(0);
        Map<String, Integer> rows = new HashMap<>();
        for (int r = 0; r < p.size(); r++) rows.put((String) p.cell(r, 1), r);
        int mu = rows.get("opt_state[0].mu[*]['w']");
        assertEquals(3L, p.cell(mu, 2), "three layers' moments live at the peak");
        assertEquals(3L * 4 * 1024 * 1024, p.cell(mu, 3));
        assertEquals("optimizer", p.cell(mu, 6));
        long top = 0;
        for (int r = 0; r < p.size(); r++) if ((Long) p.cell(r, 0) == 1) top += (Long) p.cell(r, 3);
        assertEquals(Liveness.of(m).occupiedBytes(t), top);
    }

    @Test
    void userRulesComeFirstAndTheRestKeepTheirBuiltInCategory() {
        CategoryRules.Rule copies = new CategoryRules.Rule() {
            @Override public String text() { return "copies"; }
            @Override public String[] classify(HloModule x) {
                String[] out = new String[x.values().size()];
                for (int i = 0; i < out.length; i++) if (x.values().get(i).name().startsWith("copy")) out[i] = "copies";
                return out;
            }
        };
        CategoryRules rules = CategoryRules.NONE.with(copies);
        int t = Liveness.of(m).peakTime();
        Map<String, Long> with = Categories.bytesAt(m, rules, t), without = Categories.bytesAt(m, CategoryRules.NONE, t);
        assertEquals(3L * 4 * 1024 * 1024, with.get("copies"));
        assertEquals(without.get("weights") - with.get("copies"), with.get("weights"));
        assertEquals(without.get("optimizer"), with.get("optimizer"));
        assertTrue(Categories.of(m, rules) == Categories.of(m, rules), "computed once for the rules");
        List<Output> report = Categories.blame(m, rules, t, "peak");
        assertTrue(((Table) report.get(0)).notes().get(0).contains("add up to"));
    }
}
