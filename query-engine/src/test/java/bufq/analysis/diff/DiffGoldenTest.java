package bufq.analysis.diff;

import bufq.dump.DumpLoader;
import bufq.format.FormatOptions;
import bufq.format.Formatters;
import bufq.model.HloModule;
import bufq.testing.Corpus;
import bufq.testing.Golden;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;


/**
 * Rendered diffs against golden files in {@code golden/diff/}; the remat one is the README example.
 * To regenerate after an intended change:
 * {@code mvn -o -pl query-engine test -Dtest=DiffGoldenTest -Dbufq.updateGoldens=true}, then read the diff.
 */
class DiffGoldenTest {
    private static final Path PAIRS = Corpus.dir().resolve("jax-0.10.2/pairs");

    @Test
    void tinyProgramAsTable() throws IOException {
        HloModule before = new TestModules.Tiny("jit_f", 10)
                .value("p0", "f32[16,16]", "parameter", 0, 10, "parameter", "x", null, -1)
                .temp("fusion", "f32[16,16]", 2, 6, "jit(f)/mul")
                .value("fusion.1", "f32[16,32]", "temp", 3, 5, "fusion", "jit(f)/add", "f.py", 7)
                .value("out", "f32[16,16]", "output", 7, 10, "fusion", "jit(f)/mul", "f.py", 9).claim(3, 4096).build();
        HloModule after = new TestModules.Tiny("jit_g", 10)
                .value("p0.1", "f32[16,16]", "parameter", 0, 10, "parameter", "x", null, -1)
                .temp("fusion.3", "f32[16,16]", 2, 6, "jit(f)/mul")
                .value("fusion.4", "f32[16,64]", "temp", 3, 5, "fusion", "jit(f)/add", "f.py", 7)
                .value("out.2", "f32[16,16]", "output", 7, 10, "fusion", "jit(f)/mul", "f.py", 9).claim(4, 6144).build();
        check(ModuleDiff.compare(before, after), "table", "tiny.table.txt");
    }

    @Test
    void rematPairAsMarkdown() throws Exception {
        Path pairs = Corpus.require(PAIRS);
        HloModule plain = DumpLoader.load(List.of(pairs.resolve("transformer-4layer"))).get(0);
        HloModule remat = DumpLoader.load(List.of(pairs.resolve("transformer-4layer-remat"))).get(0);
        check(ModuleDiff.compare(plain, remat, new DiffOptions(false, 6)), "markdown", "transformer-4layer-remat.md");
    }

    private void check(DiffResult r, String format, String golden) throws IOException {
        StringBuilder out = new StringBuilder();
        Formatters.writeAll(DiffTables.render(r), Formatters.byName(format), FormatOptions.DEFAULT, out);
        Golden.check(Golden.file("query-engine", "diff/" + golden), out.toString());
    }
}
