package bufq.analysis.oom;

import bufq.units.PrintedSize;
import bufq.units.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the lines around a failure that explain it into {@link LogEvent}s, one line at a time as
 * {@link OomReader} passes them: XLA's {@code hlo_rematerialization.cc} warning, JAX's unusable
 * donations ({@code mlir.py}), {@code jax_log_compiles}' {@code Compiling NAME ...} lines (a program
 * compiled more than once), the SPMD partitioner's involuntary full rematerializations, {@code memory_analysis()} figures printed as JSON or as
 * {@code CompiledMemoryStats(...)}, and BFC allocations that {@code The caller indicates that this is
 * not a failure}. At most {@link #MAX_EVENTS} are kept; the rest are counted.
 */
final class LogEvents {
    /** Words one of which each line read here holds (for {@link LogLines}' first scan). */
    static final String[] KEYS = {"rematerialization", "donat", "Compiling ", "_in_bytes", "\": {"};

    /** The most events kept from one paste. */
    static final int MAX_EVENTS = 1_000;

    private final List<LogEvent> events = new ArrayList<>();
    private final Map<String, List<Integer>> compiles = new LinkedHashMap<>();
    private int dropped;
    private String pendingName;
    private int pendingLine = -10, analysisLine = -10;
    private Map<String, PrintedSize> analysis;
    private String analysisName;
    private int analysisStart;

    /** Reads one cleaned line; true when it was such a line. */
    boolean line(String s, int number) {
        if (s.contains("_in_bytes")) return memoryAnalysis(s, number);
        if (s.startsWith("\"") && s.endsWith("{")) {
            int q = s.indexOf('"', 1);
            if (q > 1) {
                pendingName = s.substring(1, q);
                pendingLine = number;
            }
            return false;
        }
        PartitionerWarning spmd = s.contains(PartitionerWarning.KEY) ? PartitionerWarning.parse(s) : null;
        if (spmd != null) {
            add(new LogEvent(number, "involuntary-remat", null, spmd.says(), Map.of(),
                    spmd.shape() == null ? List.of() : List.of(spmd.shape()), List.of(number)));
            return true;
        }
        int remat = s.indexOf("Can't reduce memory use below");
        if (remat >= 0 && s.contains("by rematerialization")) {
            Map<String, PrintedSize> f = new LinkedHashMap<>();
            put(f, "target", exactOrPrinted(s, "below "));
            put(f, "reduced to", exactOrPrinted(s, "only reduced to "));
            put(f, "originally", exactOrPrinted(s, "down from "));
            add(new LogEvent(number, "rematerialization", null, s.substring(remat), f, List.of(), List.of(number)));
            return true;
        }
        int donated = s.indexOf("donated buffers were not usable:");
        if (donated < 0) donated = s.indexOf("donation buffers unavailable:");
        if (donated >= 0) {
            List<String> shapes = JaxShapes.listed(s.substring(s.indexOf(':', donated) + 1));
            Map<String, PrintedSize> f = new LinkedHashMap<>();
            long total = JaxShapes.bytes(shapes);
            if (total >= 0) f.put("not donated", PrintedSize.exact(total));
            add(new LogEvent(number, "donation", null, shapes.size() + " donated buffer" + (shapes.size() == 1 ? "" : "s")
                    + " not usable: " + String.join(", ", shapes), f, shapes, List.of(number)));
            return true;
        }
        int compiling = s.indexOf("Compiling ");
        if (compiling >= 0 && (compiling == 0 || s.charAt(compiling - 1) == ':' || s.charAt(compiling - 1) == ' ')) {
            String rest = s.substring(compiling + 10);
            int sp = rest.indexOf(' ');
            String name = sp < 0 ? rest : rest.substring(0, sp);
            if (!name.isEmpty() && (rest.contains(" with global shapes") || rest.contains(" for args") || rest.contains(" for with"))) {
                List<Integer> at = compiles.computeIfAbsent(name, k -> new ArrayList<>());
                if (at.size() < 10_000) at.add(number);
                return true;
            }
        }
        return false;
    }

    /** A BFC allocation its caller said was not a failure: a warning, never a failed request. */
    void notAFailure(String s, int number) {
        Map<String, PrintedSize> f = new LinkedHashMap<>();
        put(f, "requested", MessageText.sizeAfter(s, "trying to allocate "));
        add(new LogEvent(number, "allocator-warning", null, s, f, List.of(), List.of(number)));
    }

    private boolean memoryAnalysis(String s, int number) {
        Map<String, PrintedSize> f = new LinkedHashMap<>();
        int i = s.indexOf("_in_bytes");
        while (i >= 0) {
            int k = i;
            while (k > 0 && (Character.isLetterOrDigit(s.charAt(k - 1)) || s.charAt(k - 1) == '_')) k--;
            String key = s.substring(k, i + 9);
            int j = i + 9;
            while (j < s.length() && (s.charAt(j) == '"' || s.charAt(j) == ':' || s.charAt(j) == '=' || s.charAt(j) == ' ')) j++;
            long v = MessageText.numberAt(s, j);
            if (v >= 0 && !key.isEmpty()) f.put(key, PrintedSize.exact(v));
            i = s.indexOf("_in_bytes", i + 9);
        }
        if (f.isEmpty()) return false;
        if (analysis == null || analysisLine < number - 1) {
            closeAnalysis();
            analysis = new LinkedHashMap<>();
            analysisStart = number;
            int brace = s.indexOf("\": {");
            analysisName = s.startsWith("\"") && brace > 1 && !s.substring(1, brace).contains("_in_bytes") ? s.substring(1, brace)
                    : pendingLine >= number - 1 ? pendingName : null;
        }
        analysis.putAll(f);
        analysisLine = number;
        return true;
    }

    private void closeAnalysis() {
        if (analysis == null) return;
        // the figures that say most first (peak, temp, arguments, output), then the rest; zeros left out of the text
        Map<String, PrintedSize> ordered = new LinkedHashMap<>();
        for (String k : List.of("peak_memory_in_bytes", "temp_size_in_bytes", "argument_size_in_bytes", "output_size_in_bytes"))
            if (analysis.containsKey(k)) ordered.put(k, analysis.get(k));
        ordered.putAll(analysis);
        StringBuilder says = new StringBuilder("memory_analysis:");
        for (Map.Entry<String, PrintedSize> e : ordered.entrySet()) {
            if (e.getValue().low() == 0) continue;
            says.append(' ').append(e.getKey().replace("_size_in_bytes", "").replace("_in_bytes", "")).append('=')
                    .append(e.getValue().low());
        }
        add(new LogEvent(analysisStart, "memory-analysis", analysisName, says.toString(), ordered, List.of(),
                List.of(analysisStart)));
        analysis = null;
    }

    /** The events, by line, once the text is read; {@code dropped()} says how many were past the bound. */
    List<LogEvent> finish() {
        closeAnalysis();
        for (Map.Entry<String, List<Integer>> e : compiles.entrySet()) {
            List<Integer> at = e.getValue();
            if (at.size() < 2) continue;
            add(new LogEvent(at.get(0), "recompilation", e.getKey(), e.getKey() + " compiled " + at.size()
                    + " times (each compile holds its own executable and may hold its own buffers)", Map.of(), List.of(), at));
        }
        events.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return events;
    }

    int dropped() { return dropped; }

    private void add(LogEvent e) {
        if (events.size() < MAX_EVENTS) events.add(e);
        else dropped++;
    }

    private static void put(Map<String, PrintedSize> f, String name, PrintedSize s) { if (s != null) f.put(name, s); }

    /** The size after {@code key}: its exact {@code (N bytes)} where printed, else the printed size. */
    private static PrintedSize exactOrPrinted(String s, String key) {
        int i = s.indexOf(key);
        if (i < 0) return null;
        int[] end = {0};
        PrintedSize printed = Units.printedAt(s, i + key.length(), end);
        if (printed == null) return null;
        String exact = MessageText.between(s.substring(end[0]), "(", " bytes)");
        PrintedSize e = exact == null || s.indexOf('(', end[0]) != end[0] + 1 ? null : Units.printedOrNull(exact);
        return e != null && e.isExact() ? new PrintedSize(printed.text() + " (" + exact + " bytes)", e.low(), e.high()) : printed;
    }

    /**
     * The shapes JAX prints in a warning: {@code ShapedArray(float32[185,16,16,3])} (jax#9237),
     * {@code int32[128]}, or XLA's {@code f32[524288,32,32,1]{3,2,1,0}} (jax#1273), in XLA's words
     * ({@code f32[185,16,16,3]}) so they compare with a dump's shapes.
     */
    static final class JaxShapes {
        private JaxShapes() {}

        /** JAX's dtype names and XLA's, with bytes per element. */
        private static final Map<String, String> XLA = Map.ofEntries(
                Map.entry("float32", "f32"), Map.entry("float16", "f16"), Map.entry("bfloat16", "bf16"), Map.entry("float64", "f64"),
                Map.entry("int8", "s8"), Map.entry("int16", "s16"), Map.entry("int32", "s32"), Map.entry("int64", "s64"),
                Map.entry("uint8", "u8"), Map.entry("uint16", "u16"), Map.entry("uint32", "u32"), Map.entry("uint64", "u64"),
                Map.entry("bool", "pred"), Map.entry("complex64", "c64"), Map.entry("complex128", "c128"));
        private static final Map<String, Integer> BYTES = Map.ofEntries(
                Map.entry("f32", 4), Map.entry("f16", 2), Map.entry("bf16", 2), Map.entry("f64", 8), Map.entry("s8", 1),
                Map.entry("s16", 2), Map.entry("s32", 4), Map.entry("s64", 8), Map.entry("u8", 1), Map.entry("u16", 2),
                Map.entry("u32", 4), Map.entry("u64", 8), Map.entry("pred", 1), Map.entry("c64", 8), Map.entry("c128", 16));

        /** The shapes of a comma-separated list, each in XLA's words without layout; at most 1,000. */
        static List<String> listed(String text) {
            List<String> out = new ArrayList<>();
            int depth = 0, from = 0;
            for (int i = 0; i <= text.length() && out.size() < 1_000; i++) {
                char c = i < text.length() ? text.charAt(i) : ',';
                if (c == '[' || c == '(' || c == '{') depth++;
                else if (c == ']' || c == ')' || c == '}') depth--;
                else if (c == ',' && depth <= 0) {
                    String s = xla(text.substring(from, i));
                    if (s != null) out.add(s);
                    from = i + 1;
                }
            }
            return out;
        }

        /** One shape in XLA's words ({@code f32[185,16,16,3]}), or null when {@code s} holds none. */
        static String xla(String s) {
            String t = s.strip();
            if (t.startsWith("ShapedArray(")) t = t.substring(12);
            int open = t.indexOf('['), close = t.indexOf(']');
            if (open <= 0 || close < open) return null;
            String dtype = t.substring(0, open).strip();
            dtype = XLA.getOrDefault(dtype, dtype);
            if (!BYTES.containsKey(dtype)) return null;
            return dtype + t.substring(open, close + 1).replace(" ", "");
        }

        /** The bytes of the shapes (dense, unpadded), or -1 when one is not known. */
        static long bytes(List<String> shapes) {
            long total = 0;
            for (String s : shapes) {
                int open = s.indexOf('[');
                long n = BYTES.get(s.substring(0, open));
                String dims = s.substring(open + 1, s.length() - 1);
                if (!dims.isEmpty()) {
                    for (String d : dims.split(",")) {
                        try {
                            n = Math.multiplyExact(n, Long.parseLong(d.strip()));
                        } catch (NumberFormatException | ArithmeticException e) {
                            return -1;
                        }
                    }
                }
                total += n;
                if (total < 0) return -1;
            }
            return total;
        }
    }
}
