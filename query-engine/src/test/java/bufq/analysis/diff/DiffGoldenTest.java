package bufq.analysis.diff;

import bufq.dump.DumpLoader;
import bufq.format.FormatOptions;
import bufq.format.Formatters;
import bufq.model.HloModule;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Rendered diffs against golden files in {@code golden/diff/}; the remat one is the README example.
 * To regenerate after an intended change:
 * {@code mvn -o -pl query-engine test -Dtest=DiffGoldenTest -Dbufq.updateGolden=true}, then read the diff.
 */
class DiffGoldenTest {
    private static final Path PAIRS = Path.of(System.getProperty("bufq.root", "."), "..", "shared", "corpus",
            "jax-0.10.2", "pairs").normalize();

    @Test
    void tinyProgramAsTable() throws IOException {
        HloModule before = new TinyModule("jit_f", 10)
                .value("p0", "f32[16,16]", "parameter", 0, 10, "parameter", "x", null, -1)
                .temp("fusion", "f32[16,16]", 2, 6, "jit(f)/mul")
                .value("fusion.1", "f32[16,32]", "temp", 3, 5, "fusion", "jit(f)/add", "f.py", 7)
                .value("out", "f32[16,16]", "output", 7, 10, "fusion", "jit(f)/mul", "f.py", 9).claim(3, 4096).build();
        HloModule after = new TinyModule("jit_g", 10)
                .value("p0.1", "f32[16,16]", "parameter", 0, 10, "parameter", "x", null, -1)
                .temp("fusion.3", "f32[16,16]", 2, 6, "jit(f)/mul")
                .value("fusion.4", "f32[16,64]", "temp", 3, 5, "fusion", "jit(f)/add", "f.py", 7)
                .value("out.2", "f32[16,16]", "output", 7, 10, "fusion", "jit(f)/mul", "f.py", 9).claim(4, 6144).build();
        check(ModuleDiff.compare(before, after), "table", "tiny.table.txt");
    }

    @Test
    void rematPairAsMarkdown() throws Exception {
        Corpus.require(PAIRS);
        HloModule plain = DumpLoader.load(List.of(PAIRS.resolve("transformer-4layer"))).get(0);
        HloModule remat = DumpLoader.load(List.of(PAIRS.resolve("transformer-4layer-remat"))).get(0);
        check(ModuleDiff.compare(plain, remat, new DiffOptions(false, 6)), "markdown", "transformer-4layer-remat.md");
    }

    private void check(DiffResult r, String format, String golden) throws IOException {
        StringBuilder out = new StringBuilder();
        Formatters.writeAll(r.outputs(), Formatters.byName(format), FormatOptions.DEFAULT, out);
        String actual = out.toString();
        if (Boolean.getBoolean("bufq.updateGolden")) {
            Path dir = Path.of(System.getProperty("bufq.root", "."), "query-engine/src/test/resources/golden/diff");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(golden), actual, StandardCharsets.UTF_8);
            return;
        }
        try (InputStream in = getClass().getResourceAsStream("/golden/diff/" + golden)) {
            assertNotNull(in, "missing golden file golden/diff/" + golden + " (run with -Dbufq.updateGolden=true)");
            assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual);
        }
    }
}
