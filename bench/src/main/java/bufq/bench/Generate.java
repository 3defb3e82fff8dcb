package bufq.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Command line of the generator:
 * {@code Generate --source PATH --values N --format four|single --out DIR}.
 *
 * <p>Replicates the source module until it has at least N values and writes it to DIR (a fresh
 * directory, written beside it and renamed into place so a half-written set is never reused). The
 * source's own peak section must be reproducible first: otherwise the output could not be trusted.
 */
public final class Generate {
    private Generate() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path source = null, dir = null;
        long values = -1;
        String format = "four";
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) { err.println("generate: " + a + " needs a value"); return 2; }
            switch (a) {
                case "--source" -> source = Path.of(args[++i]);
                case "--values" -> values = parseCount(args[++i]);
                case "--format" -> format = args[++i];
                case "--out" -> dir = Path.of(args[++i]);
                default -> { err.println("generate: unknown option " + a); return 2; }
            }
        }
        if (source == null || dir == null || values <= 0 || !(format.equals("four") || format.equals("single"))) {
            err.println("usage: generate --source PATH --values N[k|M] --format four|single --out DIR");
            return 2;
        }
        try {
            long t0 = System.nanoTime();
            SourceDump src = SourceDump.read(source);
            List<String> problems = Peaks.selfCheck(src);
            if (!problems.isEmpty()) {
                err.println("generate: the source's peak section does not reproduce; refusing to extrapolate it:");
                problems.forEach(p -> err.println("  " + p));
                return 1;
            }
            int perCopy = new Replicator(src, 1).valuesPerCopy();
            int copies = (int) ((values + perCopy - 1) / perCopy);
            Replicator r = new Replicator(src, copies);
            long bytes = write(r, format, dir);
            out.printf("generated %s: %d copies x %d = %d values, %.1f MB, peak at %d of %d, %.1f s%n", dir, copies,
                    perCopy, (long) copies * perCopy, bytes / 1e6, r.peaks().peakTime(), r.newMax,
                    (System.nanoTime() - t0) / 1e9);
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("generate: " + e);
            return 1;
        }
    }

    static long parseCount(String s) {
        String t = s.toLowerCase(java.util.Locale.ROOT);
        long mul = t.endsWith("k") ? 1_000 : t.endsWith("m") ? 1_000_000 : 1;
        if (mul > 1) t = t.substring(0, t.length() - 1);
        return Long.parseLong(t) * mul;
    }

    /** Writes the module into {@code dir} and returns the bytes written. */
    static long write(Replicator r, String format, Path dir) throws IOException {
        Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp");
        deleteTree(tmp);
        Files.createDirectories(tmp);
        String stem = "module_0000." + r.src.program + "." + r.src.backendWord + "_after_optimizations-";
        if (format.equals("four")) {
            try (Writer w = open(tmp.resolve(stem + "buffer-assignment.txt"))) { r.writeAllocations(w); }
            try (Writer w = open(tmp.resolve(stem + "buffer-assignment-values.txt"))) {
                w.write('\n');
                r.writeValues(w);
            }
            try (Writer w = open(tmp.resolve(stem + "live-range.txt"))) { r.writeLiveRange(w); }
            if (!r.src.reportLines.isEmpty()) {
                try (Writer w = open(tmp.resolve(stem + "memory-usage-report.txt"))) { r.writeReport(w); }
            }
        } else {
            try (Writer w = open(tmp.resolve(stem + "buffer-assignment.txt"))) {
                r.writeAllocations(w);
                w.write('\n');
                r.writeValues(w);
                w.write("\n\n");
                r.writeLiveRange(w);
            }
        }
        deleteTree(dir);
        Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
        long total = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) total += Files.size(p);
        }
        return total;
    }

    private static Writer open(Path p) throws IOException {
        return new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(p), StandardCharsets.UTF_8), 1 << 20);
    }

    /** Deletes {@code p} and everything under it; nothing when it is absent. */
    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(q);
        }
    }
}
