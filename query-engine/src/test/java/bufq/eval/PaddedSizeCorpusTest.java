package bufq.eval;

import bufq.dump.DumpLoader;
import bufq.dump.file.ModuleSource;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code padded_size} is the {@code size=} TPU prints, for every TPU value of the seeds and the public TPU dumps. */
class PaddedSizeCorpusTest {
    @Test
    void paddedSizeIsTheDumpsSizeForEveryTpuValue() throws Exception {
        Query differ = Query.compile("values where padded_size != size show label, shape, size, padded_size", Catalog.standard());
        Path seeds = Path.of("../examples/seeds"), corpus = Corpus.require("public");
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(seeds)) { s.filter(p -> p.toString().endsWith(".txt")).forEach(files::add); }
        try (Stream<Path> s = Files.list(corpus)) {
            s.filter(p -> p.getFileName().toString().startsWith("patrick-toulme_")
                    && p.getFileName().toString().endsWith("-buffer-assignment.txt")).forEach(files::add);
        }
        List<String> wrong = new ArrayList<>();
        int values = 0;
        for (Path f : files) {
            for (ModuleSource src : DumpLoader.discover(List.of(f))) {
                HloModule m = src.load();
                if (!"tpu".equals(m.info().backend())) continue;
                values += m.values().size();
                Table t = differ.run(new EvalContext(m, TilingModel.TPU));
                for (int r = 0; r < t.size(); r++) {
                    wrong.add(f.getFileName() + " " + t.cell(r, 0) + " " + t.cell(r, 1) + ": size=" + t.cell(r, 2)
                            + ", padded_size " + t.cell(r, 3));
                }
            }
        }
        assertTrue(values > 200, "expected the TPU values of the seeds and the corpus, found " + values);
        assertTrue(wrong.isEmpty(), wrong.size() + " disagree:\n" + String.join("\n", wrong));
    }
}
