package bufq.dump.file;

import bufq.model.ProgramSizes;
import bufq.model.HloModule;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A {@code memory_analysis.json} beside a dump: JAX's {@code compiled.memory_analysis()} fields
 * saved by the run that made it, in the dump's directory or the one above it. Two shapes: the
 * fields of one compile ({@code {"argument_size_in_bytes": N, ...}}), which belongs to the one
 * module of the dump directory, or an object per module keyed by its file-name stem
 * ({@code {"module_0004.jit__lambda": {...}, ...}}).
 */
public final class MemoryAnalysisFile {
    private MemoryAnalysisFile() {}

    /** The file name JAX users save {@code memory_analysis()} as. */
    public static final String NAME = "memory_analysis.json";

    /** Larger than any such file: a bigger one is not read. */
    private static final long MAX_BYTES = 1 << 20;

    /**
     * The analysis of {@code m} from a {@code memory_analysis.json} in its dump's directory or the
     * one above; empty when there is none, it does not parse, or it does not say which module its
     * one compile is and the directory holds several.
     */
    public static Optional<ProgramSizes.Reported> of(HloModule m) {
        if (m.info().files().isEmpty()) return Optional.empty();
        Path first = Path.of(m.info().files().get(0));
        Path dir = first.getParent() == null ? Path.of(".") : first.getParent();
        for (Path d : new Path[] {dir, dir.getParent() == null ? dir.toAbsolutePath().getParent() : dir.getParent()}) {
            if (d == null) continue;
            Path f = d.resolve(NAME);
            if (!Files.isRegularFile(f)) continue;
            try {
                if (Files.size(f) > MAX_BYTES) return Optional.empty();
                Map<String, Map<String, Long>> parsed = parse(Files.readString(f, StandardCharsets.UTF_8));
                if (parsed == null) return Optional.empty();
                return pick(f.toString(), parsed, m, dir);
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static Optional<ProgramSizes.Reported> pick(String file, Map<String, Map<String, Long>> parsed, HloModule m, Path dir)
            throws IOException {
        if (parsed.containsKey("")) {
            // One compile's fields: the module of a directory that holds one.
            return moduleSets(dir) == 1 ? Optional.of(ProgramSizes.Reported.of(file, null, parsed.get(""))) : Optional.empty();
        }
        String number = m.info().number() < 0 ? null : String.format("module_%04d.", m.info().number());
        for (Map.Entry<String, Map<String, Long>> e : parsed.entrySet()) {
            String k = e.getKey();
            if (number != null && k.startsWith(number) && k.substring(number.length()).equals(m.info().name()))
                return Optional.of(ProgramSizes.Reported.of(file, k, e.getValue()));
        }
        return Optional.empty();
    }

    /** How many modules' buffer assignments {@code dir} holds (text sets). */
    private static int moduleSets(Path dir) throws IOException {
        List<String> sets = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.forEach(p -> {
                String n = p.getFileName().toString();
                if (FileKind.of(n) == FileKind.BUFFER_ASSIGNMENT && !sets.contains(FileKind.setName(n))) sets.add(FileKind.setName(n));
            });
        }
        return sets.size();
    }

    /**
     * The numeric fields of the file: under key {@code ""} when they are top level, else by the
     * key of the object holding them; null when the text is not such an object.
     */
    static Map<String, Map<String, Long>> parse(String text) {
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        int i = skip(text, 0);
        if (i >= text.length() || text.charAt(i) != '{') return null;
        String outer = null;
        i++;
        while (true) {
            i = skip(text, i);
            if (i >= text.length()) return null;
            char c = text.charAt(i);
            if (c == ',') { i++; continue; }
            if (c == '}') {
                if (outer == null) return out;
                outer = null;
                i++;
                continue;
            }
            if (c != '"') return null;
            int end = text.indexOf('"', i + 1);
            if (end < 0) return null;
            String key = text.substring(i + 1, end);
            i = skip(text, end + 1);
            if (i >= text.length() || text.charAt(i) != ':') return null;
            i = skip(text, i + 1);
            if (i < text.length() && text.charAt(i) == '{') {
                if (outer != null) return null;
                outer = key;
                i++;
                continue;
            }
            int j = i;
            while (j < text.length() && (Character.isDigit(text.charAt(j)) || text.charAt(j) == '-')) j++;
            if (j == i) return null;
            out.computeIfAbsent(outer == null ? "" : outer, k -> new LinkedHashMap<>()).put(key, Long.parseLong(text.substring(i, j)));
            i = j;
        }
    }

    private static int skip(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        return i;
    }
}
