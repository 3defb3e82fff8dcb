package bufq.shell;

import bufq.dump.DumpLoader;
import bufq.model.Module;
import bufq.model.PeakClaim;
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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code bufq --format json -c summary PATH} on every file and every dump directory of
 * {@code ../shared/corpus}: exit 0, nothing on stderr, one JSON row per module with the columns of
 * issue 2 in order, and the recomputed peak equal to the dump's claimed one wherever it prints
 * cumulative figures.
 */
class CorpusCliTest {
    static final Pattern ROW = Pattern.compile("  \\{\"module\": \"[^\"]+\", \"backend\": \"[a-z]+\", \"files\": (\\d+), "
            + "\"allocations\": \\d+, \"values\": \\d+, \"instructions\": \\d+, \"total_bytes\": (\\d+|null), "
            + "\"peak_time\": (\\d+|null), \"peak_bytes\": (\\d+|null), \"claimed_peak_bytes\": (\\d+|null), \"warnings\": 0},?");

    @TestFactory
    Stream<DynamicTest> summaryJsonOnEveryCorpusEntry() throws IOException {
        Path corpus = CliTest.root().resolve("../shared/corpus").normalize();
        assumeTrue(Files.isDirectory(corpus), "corpus not found at " + corpus);
        List<Path> entries = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(corpus)) {
            walk.filter(p -> Files.isDirectory(p) ? hasDumpFiles(p) : isDumpFile(p)).sorted().forEach(entries::add);
        }
        assertTrue(entries.size() > 50, "expected the whole corpus, found " + entries.size());
        return entries.stream().map(p -> DynamicTest.dynamicTest(corpus.relativize(p).toString(), () -> check(p)));
    }

    private static boolean isDumpFile(Path p) {
        String n = p.getFileName().toString();
        return Files.isRegularFile(p) && n.endsWith(".txt") && n.contains("module_");
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
        Path corpus = CliTest.root().resolve("../shared/corpus/public").normalize();
        assumeTrue(Files.isDirectory(corpus), "corpus not found at " + corpus);
        Path report;
        try (Stream<Path> s = Files.list(corpus)) {
            report = s.filter(f -> f.getFileName().toString().endsWith("module_0183.jit__chi_at_q_jit.sm_8.0_gpu-memory-usage-report.txt"))
                    .findFirst().orElse(null);
        }
        assumeTrue(report != null, "report-only corpus file not found");
        String stated = Files.readAllLines(report).get(0).replaceAll("Total bytes used: (\\d+).*", "$1");
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "csv", "-c", "summary", report.toString()), "");
        assertEquals(0, r.code(), r.err());
        assertEquals("jit__chi_at_q_jit,gpu,1,46,0,0," + stated + ",,,,0", r.out().split("\n")[1]);
    }

    static void check(Path p) throws Exception {
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "json", "-c", "summary", p.toString()), "");
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        String[] lines = r.out().split("\n");
        assertEquals("[", lines[0]);
        assertEquals("]", lines[lines.length - 1]);
        List<Module> modules = DumpLoader.load(List.of(p));
        assertEquals(modules.size(), lines.length - 2, "one row per module");
        for (int i = 1; i < lines.length - 1; i++) {
            Matcher m = ROW.matcher(lines[i]);
            assertTrue(m.matches(), "row shape: " + lines[i]);
            assertNotEquals("0", m.group(1), "files");
            assertNotEquals("null", m.group(2), "total_bytes");
            PeakClaim claim = modules.get(i - 1).info().peakClaim();
            // New-style claims print cumulative figures that the recomputation must hit exactly;
            // old-style lists may repeat names, so their sum is not a peak (FORMAT.md).
            if (claim != null && claim.cumulative())
                assertEquals(m.group(5), m.group(4), "peak_bytes equals the claimed peak: " + lines[i]);
        }
    }
}
