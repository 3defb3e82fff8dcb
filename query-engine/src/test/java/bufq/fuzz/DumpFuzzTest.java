package bufq.fuzz;

import bufq.analysis.waste.Waste;
import bufq.analysis.blame.Blame;
import bufq.analysis.peak.Peak;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.map.AllocationMap;
import bufq.analysis.check.Checks;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.dump.file.DumpFile;
import bufq.dump.DumpLoader;
import bufq.dump.file.FileKind;
import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged dumps: every case ends, within a time bound, with a loaded module (warnings
 * counted) or a {@link LoadException} whose single line names the file (and the line when the
 * damage is inside the file); never another exception, an {@code OutOfMemoryError} or a hang.
 * Each case copies a real module's files to a temporary directory, damages one file, and loads
 * it through the same path the shell uses; a loaded module is then put through the questions
 * the shell asks first (peak, checks, a query).
 */
class DumpFuzzTest {
    /** A hang, not a slow machine: a case normally takes milliseconds. */
    static final long CASE_MILLIS = 20_000;

    @TempDir Path tmp;

    /** The repo's own seed dumps and example: always there, so this part never skips. */
    @Test
    void damagedExamplesLoadOrFailInOneLine() throws Exception {
        Path root = Fuzz.root();
        List<Path> roots = new ArrayList<>(List.of(root.resolve("examples/seeds"), root.resolve("examples/jax-mlp")));
        // The reader's fixtures add the other eras, TPU tiling, report-only modules and framed logs.
        roots.add(root.resolve("query-engine/src/test/resources/fixtures"));
        List<List<Path>> modules = modules(roots);
        assertTrue(modules.size() >= 12, "examples not found under " + root + ": " + modules.size());
        fuzz("examples", modules, Fuzz.seed(), Fuzz.cases(200));
    }

    @Test
    void damagedCorpusDumpsLoadOrFailInOneLine() throws Exception {
        Path corpus = Corpus.require(Corpus.dir());
        List<List<Path>> modules = modules(List.of(corpus));
        assertFalse(modules.isEmpty());
        fuzz("corpus", modules, Fuzz.seed(), Fuzz.cases(300));
    }

    /**
     * Hostile {@code .gz} files: one file of an example module gzipped with binary bytes,
     * NULs or invalid UTF-8 before or after its text, cut or corrupted gzip data, or a bomb of
     * repeated text past the free expansion. Each loads, or is refused in one line naming the file.
     */
    @Test
    void hostileGzipFilesLoadOrFailInOneLine() throws Exception {
        Path root = Fuzz.root();
        List<List<Path>> modules = modules(List.of(root.resolve("examples/seeds"), root.resolve("examples/jax-mlp")));
        long seed = Fuzz.seed();
        Random r = new Random(seed ^ "gzip".hashCode());
        int cases = Fuzz.cases(40);
        Tally tally = new Tally();
        long t0 = System.currentTimeMillis();
        int bombs = 0;
        for (int n = 0; n < cases; n++) {
            Fuzz.safetyNet(t0, n, cases, seed);
            List<Path> module = modules.get(r.nextInt(modules.size()));
            Path victim = module.get(r.nextInt(module.size()));
            byte[] text = Files.readAllBytes(victim);
            int kind = r.nextInt(6);
            if (kind == 3 && bombs++ >= 2) kind = 0;   // a bomb inflates 64 MiB: two per run are enough
            java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
            try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(raw, 1 << 16) {{ def.setLevel(1); }}) {
                byte[] noise = new byte[1 + r.nextInt(16384)];
                r.nextBytes(noise);
                switch (kind) {
                    case 0 -> { gz.write(noise); gz.write(text); }                       // binary before the text
                    case 1 -> { gz.write(text); gz.write(noise); }                       // binary after it
                    case 2 -> { gz.write(new byte[noise.length]); gz.write(text); }      // NULs before it
                    case 3 -> {                                                          // a bomb of one line
                        int eol = 0;
                        while (eol < text.length && eol < 200 && text[eol] != '\n') eol++;
                        byte[] line = (new String(text, 0, eol, java.nio.charset.StandardCharsets.ISO_8859_1) + "\n")
                                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                        java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream(1 << 20);
                        while (block.size() < 1 << 20) block.write(line);
                        for (int mib = 0; mib < 66; mib++) block.writeTo(gz);
                    }
                    default -> gz.write(text);                                           // cut or corrupted below
                }
            }
            byte[] gzipped = raw.toByteArray();
            if (kind == 4) gzipped = java.util.Arrays.copyOf(gzipped, r.nextInt(gzipped.length));
            if (kind == 5 && gzipped.length > 20) gzipped[10 + r.nextInt(gzipped.length - 10)] ^= (byte) (1 + r.nextInt(255));
            Path dir = Files.createDirectory(tmp.resolve("gzip-" + n));
            for (Path p : module) if (p != victim) Files.write(dir.resolve(p.getFileName().toString()), Files.readAllBytes(p));
            Path target = dir.resolve(victim.getFileName() + ".gz");
            Files.write(target, gzipped);
            check("gzip case " + n + " (kind " + kind + " of " + victim.getFileName() + "), " + Fuzz.replay(seed), target, gzipped, tally);
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) Files.delete(p);
            }
            Files.delete(dir);
        }
        System.out.println("dump fuzz gzip: " + cases + " cases in " + (System.currentTimeMillis() - t0) + " ms, "
                + Fuzz.replay(seed) + ": " + tally);
    }

    private void fuzz(String label, List<List<Path>> modules, long seed, int cases) throws Exception {
        Map<Path, byte[]> bytes = new TreeMap<>();
        for (List<Path> m : modules) for (Path p : m) bytes.put(p, Files.readAllBytes(p));
        Random r = new Random(seed ^ label.hashCode());   // each part its own stream, one seed to replay
        DumpMutator.Kind[] kinds = DumpMutator.Kind.values();
        Tally tally = new Tally();
        long t0 = System.currentTimeMillis();
        int n = 0;
        for (; n < cases; n++) {
            Fuzz.safetyNet(t0, n, cases, seed);
            List<Path> module = modules.get(r.nextInt(modules.size()));
            Path victim = module.get(r.nextInt(module.size()));
            DumpMutator.Kind kind = kinds[r.nextInt(kinds.length)];
            byte[] damaged = DumpMutator.mutate(kind, bytes.get(victim), r);
            if (r.nextInt(4) == 0) damaged = DumpMutator.mutate(kinds[r.nextInt(kinds.length)], damaged, r);
            Path dir = Files.createDirectory(tmp.resolve(label + "-" + n));
            for (Path p : module) Files.write(dir.resolve(p.getFileName().toString()), p == victim ? damaged : bytes.get(p));
            Path target = dir.resolve(victim.getFileName().toString());
            String what = label + " case " + n + " (" + kind + " of " + victim.getFileName() + "), " + Fuzz.replay(seed);
            check(what, target, damaged, tally);
            for (Path p : module) Files.delete(dir.resolve(p.getFileName().toString()));   // passed: keep the temp dir small
            Files.delete(dir);
        }
        System.out.println("dump fuzz " + label + ": " + n + " cases in " + (System.currentTimeMillis() - t0) + " ms, "
                + Fuzz.replay(seed) + ": " + tally);
    }

    /** Loads {@code target} under a time bound and judges the outcome. */
    static void check(String what, Path target, byte[] input, Tally tally) {
        Fuzz.Outcome<List<HloModule>> o = Fuzz.bounded(what, CASE_MILLIS, () -> {
            List<HloModule> ms = DumpLoader.load(List.of(target));
            for (HloModule m : ms) exercise(m);
            return ms;
        });
        if (o.thrown() == null) {
            for (HloModule m : o.value()) {
                if (m.warningCount() < m.warnings().size()) throw fail(what, target, input, "warnings not counted", null);
                for (var w : m.warnings()) {
                    if (w.toString().matches("(?s).*[\\r\\n].*")) throw fail(what, target, input, "warning of several lines: " + w, null);
                }
                tally.loaded++;
                if (m.warningCount() > 0) tally.warned++;
            }
            return;
        }
        if (!(o.thrown() instanceof LoadException e)) throw fail(what, target, input, "unexpected " + o.thrown(), o.thrown());
        String msg = e.getMessage();
        if (msg.contains("\n") || msg.contains("\r")) throw fail(what, target, input, "message of several lines: " + msg, e);
        if (e.file() == null || !msg.startsWith(e.file() + ":")) throw fail(what, target, input, "message names no file: " + msg, e);
        if (!e.file().contains(target.getParent().getFileName().toString()))
            throw fail(what, target, input, "message names another file: " + msg, e);
        // Problems of the file as a whole have no line to name.
        boolean wholeFile = java.util.stream.Stream.of("empty file", "blank file", "not a valid gzip", "gzip data", "inflated .gz", "inflates")
                .anyMatch(e.reason()::startsWith);
        // A proto has no lines: its errors name the byte offset ("byte N (message path): ...").
        boolean atByte = e.reason().matches("byte \\d+.*");
        if (e.line() <= 0 && !wholeFile && !atByte) throw fail(what, target, input, "message names no line: " + msg, e);
        tally.refused.merge(e.reason().replaceAll("[0-9'\"].*", "").strip(), 1, Integer::sum);
    }

    /** The first questions the shell asks of a loaded module. */
    static void exercise(HloModule m) throws QueryException {
        Liveness.of(m);
        Liveness.of(m).peakTime();
        m.totalBytes();
        Liveness.of(m).colors();
        for (var v : m.values()) if (v.range() != null) LiveValues.at(m, v.range().start());
        Peak.report(m, OptionalInt.empty(), Peak.DEFAULT_SMALL_THRESHOLD, TilingModel.TPU);
        Checks.check(m, TilingModel.TPU, List.of());
        Waste.fragmentation(m);
        Waste.padding(m, TilingModel.TPU);
        Timeline.chart(m, OptionalInt.empty(), 80);
        Timeline.svg(m, OptionalInt.empty());
        for (bufq.analysis.blame.BlameBy by : bufq.analysis.blame.BlameBy.values()) Blame.atPeak(m, by, 0);
        if (!m.allocations().isEmpty()) AllocationMap.chart(m, m.allocations().get(0).index(), 80);
        bufq.analysis.diff.ModuleDiff.compare(m, m);
        Query.compile("values where live at peak order by size desc limit 5", Catalog.standard()).run(new EvalContext(m));
    }

    static AssertionError fail(String what, Path target, byte[] input, String why, Throwable cause) {
        Path kept = Fuzz.keep(target.getFileName().toString(), input);
        return new AssertionError(what + ": " + why + (kept == null ? "" : "; input kept at " + kept), cause);
    }

    /** HloModule file sets under {@code roots}, as the loader groups them; other files are one module each (the seeds). */
    static List<List<Path>> modules(List<Path> roots) throws IOException, LoadException {
        List<List<Path>> out = new ArrayList<>();
        for (Path root : roots) {
            if (!Files.isDirectory(root)) continue;
            boolean dumps = false;
            try (var walk = Files.walk(root)) {
                for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
                    String name = f.getFileName().toString();
                    if (name.endsWith(".md")) continue;   // the corpus's SOURCES.md
                    if (FileKind.of(name) == FileKind.OTHER) out.add(List.of(f));
                    else dumps = true;
                }
            }
            if (!dumps) continue;
            for (ModuleSource s : DumpLoader.discover(List.of(root))) {
                List<Path> files = s.dumpFiles().stream().map(DumpFile::path).toList();
                if (files.stream().allMatch(p -> p != null)) out.add(files);
            }
        }
        return out;
    }

    static final class Tally {
        int loaded, warned;
        final Map<String, Integer> refused = new TreeMap<>();

        @Override public String toString() {
            return loaded + " loaded (" + warned + " with warnings), refused: " + refused;
        }
    }

    static byte[] read(Path p) throws IOException { return Files.readAllBytes(p); }
}
