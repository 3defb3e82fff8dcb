package bufq.shell.cli;

import bufq.dump.DumpLoader;
import bufq.dump.file.FileKind;
import bufq.model.HloModule;
import bufq.analysis.liveness.Liveness;
import bufq.model.PeakClaim;
import bufq.shell.session.DefaultEngine;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code bufq --format json -c summary PATH} on every file and every dump directory of
 * the corpus: exit 0, nothing on stderr, one JSON row per module with the columns of
 * the summary's in order, and the recomputed peak equal to the dump's claimed one wherever it prints
 * cumulative figures.
 */
class CorpusCliTest {
    static final Pattern ROW = Pattern.compile("  \\{\"handle\": \"[^\"]+\", \"program\": \"[^\"]+\", \"current\": (?:true|false), \"backend\": \"[a-z]+\", \"files\": (\\d+), "
            + "\"allocations\": \\d+, \"values\": \\d+, \"instructions\": \\d+, \"total_bytes\": (\\d+|null), "
            + "\"peak_time\": (\\d+|null), \"peak_bytes\": (\\d+|null), \"claimed_peak_time\": (\\d+|null), "
            + "\"claimed_peak_bytes\": (\\d+|null), \"warnings\": 0, \"peak_note\": (null|\"(?:[^\"\\\\]|\\\\.)*\")},?");

    @TestFactory
    Stream<DynamicTest> summaryJsonOnEveryCorpusEntry() throws IOException {
        Path corpus = Corpus.require(Corpus.dir());
        return entries().stream().map(p -> DynamicTest.dynamicTest(corpus.relativize(p).toString(), () -> check(p)));
    }

    /** Every dump file and every directory of dump files in the corpus, in name order. */
    static List<Path> entries() throws IOException {
        Path corpus = Corpus.require(Corpus.dir());
        List<Path> entries = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(corpus)) {
            walk.filter(p -> Files.isDirectory(p) ? hasDumpFiles(p) : isDumpFile(p)).sorted().forEach(entries::add);
        }
        assertTrue(entries.size() > 50, "expected the whole corpus, found " + entries.size());
        return entries;
    }

    /** A text file the reader takes by its name (not the HLO text, logs and notes a dump directory also holds). */
    private static boolean isDumpFile(Path p) {
        String n = p.getFileName().toString();
        return Files.isRegularFile(p) && n.endsWith(".txt") && n.contains("module_") && FileKind.of(n) != FileKind.OTHER;
    }

    /**
     * How many files of {@code dir} the reader skips, saying so: those it cannot tell a dump by their name (nor reads as a
     * proto), less XLA's other outputs ({@code module_NNNN.*}: HLO text, LLVM IR, objects), which it passes over silently.
     */
    private static long skippedFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile).map(f -> f.getFileName().toString())
                    .filter(n -> FileKind.of(n) == FileKind.OTHER && !n.endsWith(".pb") && !n.matches("module_\\d+\\..*")).count();
        }
    }

    private static boolean hasDumpFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(CorpusCliTest::isDumpFile);
        } catch (IOException e) {
            return false;
        }
    }

    /** A module known only from a memory usage report: rounded sizes, so total_bytes is the report's stated total. */
    @org.junit.jupiter.api.Test
    void reportOnlyModuleUsesTheStatedTotal() throws IOException {
        Path report = Corpus.requireFile("public", "module_0183.jit__chi_at_q_jit.sm_8.0_gpu-memory-usage-report.txt");
        String stated = Files.readAllLines(report).get(0).replaceAll("Total bytes used: (\\d+).*", "$1");
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "csv", "-c", "summary", report.toString()), "");
        assertEquals(0, r.code(), r.err());
        assertEquals("jit__chi_at_q_jit,jit__chi_at_q_jit,true,gpu,1,46,0,0," + stated + ",,,,,0", r.out().split("\n")[1]);
    }

    /** the reported peak change equals the difference of the two modules' peaks as summary reports them. */
    @org.junit.jupiter.api.Test
    void diffOfRealPairs() {
        Path pairs = Corpus.require("jax-0.10.2/pairs");
        String base = pairs.resolve("transformer-4layer").toString();
        CliTest.Result same = CliTest.run(DefaultEngine::new, Map.of(),
                List.of("-c", "diff 1 2", base, pairs.resolve("transformer-4layer-again").toString()), "");
        assertEquals(0, same.code(), same.err());
        assertTrue(same.out().contains("no differences"), same.out());
        String remat = pairs.resolve("transformer-4layer-remat").toString();
        CliTest.Result claims = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "csv", "-c", "summary", base, remat), "");
        String[] rows = claims.out().split("\n");
        long before = Long.parseLong(rows[1].split(",")[10]);
        long after = Long.parseLong(rows[2].split(",")[10]);
        assertNotEquals(before, after, "the remat pair differs");
        // diff gives several tables: one json object of them
        CliTest.Result diff = CliTest.run(DefaultEngine::new, Map.of(),
                List.of("--format", "json", "-c", "diff " + base + " " + remat + " limit 3"), "");
        assertEquals(0, diff.code(), diff.err());
        assertTrue(diff.out().startsWith("{\n  \"summary\": ["), diff.out());
        assertTrue(diff.out().contains("{\"measure\": \"peak, occupied\", \"before\": " + before + ", \"after\": " + after
                + ", \"change\": " + (after - before) + ","), diff.out());
    }

    static void check(Path p) throws Exception {
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "json", "-c", "summary", p.toString()), "");
        assertEquals(0, r.code(), r.err());
        // A directory's other files (a README) are named as skipped, exactly as many as there are; XLA's
        // other outputs in a whole dump directory are passed over without a word; nothing else is said.
        long skipped = Files.isDirectory(p) ? skippedFiles(p) : 0;
        String err = skipped == 0 ? r.err() : r.err().replaceFirst("(?m)^bufq: warning: " + java.util.regex.Pattern.quote(p.toString())
                + ": skipped " + skipped + " files?: .*\n", "");
        assertEquals("", err);
        String[] lines = r.out().split("\n");
        assertEquals("[", lines[0]);
        assertEquals("]", lines[lines.length - 1]);
        List<HloModule> modules = DumpLoader.load(List.of(p));
        assertEquals(modules.size(), lines.length - 2, "one row per module");
        for (int i = 1; i < lines.length - 1; i++) {
            Matcher m = ROW.matcher(lines[i]);
            assertTrue(m.matches(), "row shape: " + lines[i]);
            assertNotEquals("0", m.group(1), "files");
            assertNotEquals("null", m.group(2), "total_bytes");
            HloModule module = modules.get(i - 1);
            Liveness l = Liveness.of(module);
            assertEquals(l.peakTime() < 0 ? "null" : Integer.toString(l.peakTime()), m.group(3), "peak_time: " + lines[i]);
            assertEquals(l.peakTime() < 0 ? "null" : Long.toString(l.peakBytes()), m.group(4), "peak_bytes: " + lines[i]);
            PeakClaim claim = module.info().peakClaim();
            assertEquals(claim == null ? "null" : Integer.toString(claim.time()), m.group(5), "claimed_peak_time: " + lines[i]);
            // New-style claims print cumulative figures: the live bytes at the label must hit them exactly;
            // old-style lists may repeat names, so their sum is not a peak (FORMAT.md).
            if (claim != null && claim.cumulative())
                assertEquals(Long.toString(l.liveBytesAllSpaces(claim.time())), m.group(6), "claimed_peak_bytes: " + lines[i]);
        }
    }

    /**
     * A jaxlib 0.10 report read alone (no sibling beside it) lists no allocation indices, only
     * per-colour tables: total_bytes is its stated "Total bytes", not the 0 B of no allocations.
     */
    @org.junit.jupiter.api.Test
    void perColourReportAloneUsesItsStatedTotal(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path src = Corpus.require("jax-0.10.2/multi-module-dir-analysis-off")
                .resolve("module_0012.jit_mlp.cpu_after_optimizations-memory-usage-report.txt");
        Path report = Files.copy(src, dir.resolve(src.getFileName()));
        long stated = 0;
        for (String line : Files.readAllLines(report))
            if (line.startsWith("Total bytes: ")) stated += Long.parseLong(line.split(" ")[2]);
        assertTrue(stated > 0, "the report states its total");
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "csv", "-c", "summary", report.toString()), "");
        assertEquals(0, r.code(), r.err());
        assertEquals(Long.toString(stated), r.out().split("\n")[1].split(",")[8], r.out());
    }
}
