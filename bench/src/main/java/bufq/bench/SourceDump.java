package bufq.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A real dump split into the pieces the generator replicates: allocation lines with their value
 * lines, Used-values blocks, the schedule, BufferLiveRange and the peak section's style.
 *
 * <p>Reads either a jaxlib-0.10 four-file set (give any of its files or its directory) or a
 * single-file dump. Lines are kept as text; only what must be renumbered is parsed.
 */
final class SourceDump {
    /** {@code value: <id name{idx}[ (phi)] @c>} as parsed from a value line or a block header. */
    record ValueRef(long id, String name, String index, boolean phi, String color, String rest) {
        String key() { return name + (index.isEmpty() ? "{}" : index); }
    }

    record Alloc(int index, long size, String flags, int parameter, List<ValueRef> values) {}

    record Range(String name, String index, int start, int end) {
        String key() { return name + index; }
    }

    final String program;
    final String backendWord;
    final List<Alloc> allocations = new ArrayList<>();
    final List<List<String>> blocks = new ArrayList<>();      // Used-values blocks, raw lines
    final List<String> sequence = new ArrayList<>();
    final List<Range> ranges = new ArrayList<>();
    final List<String> peakLines = new ArrayList<>();
    final List<String> reportLines = new ArrayList<>();
    long totalBytes = -1;
    int maxTime = -1;
    int peakTime = -1;
    boolean cumulativePeak;
    String stackRoot;                                          // e.g. "main.50", null without a tree
    final Map<String, String> instructionLine = new HashMap<>(); // name -> text after "from instruction: %name = "

    private SourceDump(String program, String backendWord) {
        this.program = program;
        this.backendWord = backendWord;
    }

    /** Loads a four-file set (a directory or any file of it) or a single-file dump. */
    static SourceDump read(Path path) throws IOException {
        List<Path> files = new ArrayList<>();
        Path ba;
        if (Files.isDirectory(path)) {
            try (var s = Files.list(path)) {
                ba = s.filter(p -> p.getFileName().toString().endsWith("-buffer-assignment.txt")).findFirst()
                        .orElseThrow(() -> new IOException("no *-buffer-assignment.txt in " + path));
            }
        } else {
            ba = path;
        }
        String fn = ba.getFileName().toString();
        String prefix = fn.substring(0, fn.lastIndexOf("-buffer-assignment"));
        for (String kind : new String[]{"-buffer-assignment.txt", "-buffer-assignment-values.txt",
                "-live-range.txt", "-memory-usage-report.txt"}) {
            Path p = ba.resolveSibling(prefix + kind);
            if (Files.exists(p) && (kind.equals("-buffer-assignment.txt") || !isSingleFile(ba))) files.add(p);
        }
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("module_\\d+\\.([^.]+)\\.([^-]*?)(?:_after_optimizations)?$").matcher(prefix);
        String program = m.find() ? m.group(1) : "jit_bench";
        String backend = m.find(0) ? m.group(2) : "cpu";
        SourceDump d = new SourceDump(program, backend);
        for (Path f : files) {
            if (f.toString().endsWith("-memory-usage-report.txt")) {
                d.reportLines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            } else {
                d.parse(Files.readAllLines(f, StandardCharsets.UTF_8));
            }
        }
        return d;
    }

    private static boolean isSingleFile(Path ba) throws IOException {
        try (var lines = Files.lines(ba, StandardCharsets.UTF_8)) {
            return lines.anyMatch(l -> l.startsWith("Used values:") || l.startsWith("HloLiveRange"));
        }
    }

    boolean isSingleFileSource() { return reportLines.isEmpty(); }

    private enum Sec { NONE, ALLOC, VALUES, SEQ, RANGES, PEAK, STACK }

    private void parse(List<String> lines) {
        Sec sec = Sec.NONE;
        List<String> block = null;
        for (String line : lines) {
            if (line.startsWith("BufferAssignment:")) { sec = Sec.ALLOC; continue; }
            if (line.startsWith("Total bytes used: ")) {
                String n = line.substring(18);
                int sp = n.indexOf(' ');
                totalBytes = Long.parseLong(sp < 0 ? n : n.substring(0, sp));
                sec = Sec.NONE;
                continue;
            }
            if (line.startsWith("Used values:")) { sec = Sec.VALUES; continue; }
            if (line.startsWith("HloLiveRange (max ")) {
                maxTime = Integer.parseInt(line.substring(18, line.indexOf(')')));
                sec = Sec.NONE;
                continue;
            }
            if (line.equals("  InstructionSequence:")) { sec = Sec.SEQ; continue; }
            if (line.equals("  BufferLiveRange:")) { sec = Sec.RANGES; continue; }
            if (line.startsWith("  Live ranges at ")) {
                peakTime = Integer.parseInt(line.substring(17, line.indexOf(' ', 17)));
                sec = Sec.PEAK;
                continue;
            }
            if (line.startsWith("  Stack trace breakdown for peak usage")) { sec = Sec.STACK; continue; }
            switch (sec) {
                case ALLOC -> {
                    if (line.startsWith("allocation ")) allocations.add(parseAlloc(line));
                    else if (line.startsWith(" value: ")) allocations.get(allocations.size() - 1).values()
                            .add(parseRef(line.substring(8)));
                }
                case VALUES -> {
                    if (line.startsWith("<")) { block = new ArrayList<>(); blocks.add(block); }
                    if (block != null && !line.isEmpty()) block.add(line);
                    if (line.startsWith(" from instruction:")) {
                        String t = line.substring(18).trim();
                        if (t.startsWith("%")) {
                            int eq = t.indexOf(" = ");
                            if (eq > 0) instructionLine.put(t.substring(1, eq), t.substring(eq + 3));
                        }
                    }
                }
                case SEQ -> {
                    String t = line.trim();
                    if (!t.isEmpty()) sequence.add(t.substring(t.indexOf(':') + 1));
                }
                case RANGES -> {
                    String t = line.trim();
                    if (t.isEmpty()) continue;
                    int colon = t.lastIndexOf(':');
                    String se = t.substring(colon + 1);
                    int dash = se.indexOf('-');
                    String key = t.substring(0, colon);
                    int br = key.indexOf('{');
                    ranges.add(new Range(br < 0 ? key : key.substring(0, br), br < 0 ? "{}" : key.substring(br),
                            Integer.parseInt(se.substring(0, dash)), Integer.parseInt(se.substring(dash + 1))));
                }
                case PEAK -> {
                    if (!line.isBlank()) {
                        peakLines.add(line);
                        if (line.contains("(cumulative: ")) cumulativePeak = true;
                    }
                }
                case STACK -> {
                    String t = line.trim();
                    if (stackRoot == null && !t.isEmpty()) stackRoot = t.substring(0, t.indexOf(" ("));
                }
                default -> { }
            }
        }
    }

    private static Alloc parseAlloc(String line) {
        int colon = line.indexOf(':');
        int index = Integer.parseInt(line.substring(11, colon));
        String rest = line.substring(colon + 1, line.length() - 1); // " size N, ..." without the last ':'
        if (!rest.startsWith(" size ")) throw new IllegalArgumentException("unsupported allocation line: " + line);
        int comma = rest.indexOf(',');
        long size = Long.parseLong(comma < 0 ? rest.substring(6) : rest.substring(6, comma));
        String flags = comma < 0 ? "" : rest.substring(comma);
        int parameter = -1;
        int p = flags.indexOf(", parameter ");
        if (p >= 0) {
            int end = flags.indexOf(',', p + 12);
            parameter = Integer.parseInt(flags.substring(p + 12, end < 0 ? flags.length() : end));
        }
        return new Alloc(index, size, flags, parameter, new ArrayList<>());
    }

    /** Parses {@code <id name{idx}[ (phi)] @c>rest}. */
    static ValueRef parseRef(String s) {
        int sp = s.indexOf(' ');
        long id = Long.parseLong(s.substring(1, sp));
        int gt = s.indexOf('>');
        String inner = s.substring(sp + 1, gt);      // name{idx}[ (phi)] @c
        int at = inner.lastIndexOf(" @");
        String color = inner.substring(at + 2);
        String head = inner.substring(0, at);
        boolean phi = head.endsWith(" (phi)");
        if (phi) head = head.substring(0, head.length() - 6);
        int br = head.indexOf('{');
        String name = br < 0 ? head : head.substring(0, br);
        String index = br < 0 ? "" : head.substring(br);
        return new ValueRef(id, name, index, phi, color, s.substring(gt + 1));
    }
}
