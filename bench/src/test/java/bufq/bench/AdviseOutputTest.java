package bufq.bench;

import bufq.api.Advise;
import bufq.analysis.advise.AdviceList;
import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.format.FormatOptions;
import bufq.format.Formatters;
import bufq.format.Result;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code advise} on the 648-layer transformer the advise benchmark uses (the corpus's 12-layer step
 * replicated to 50,187 values): what a pipe gets is short enough to read and paste, no id lists and
 * no line past the fold, every row kept.
 */
class AdviseOutputTest {
    static final Path TRANSFORMER = Corpus.dir().resolve("jax-0.10.2/transformer-12layer");

    @TempDir Path tmp;

    @Test void aDeepModelsAdviceFitsABugReport() throws Exception {
        Corpus.require(TRANSFORMER);
        Path out = tmp.resolve("layers");
        assertEquals(0, Generate.run(new String[]{"--source", TRANSFORMER.toString(), "--values", "50187", "--format", "four",
                "--out", out.toString()}, System.out, System.err));
        HloModule m = DumpLoader.load(List.of(out)).get(0);
        AdviceList list = Advise.of(m, new Advise.Ask(List.of(), null, null, List.of(m), null, Catalog.standard(),
                TilingModel.TPU, n -> null));
        assertNotNull(list);
        assertTrue(list.rows().size() >= 1, "a change found");
        StringBuilder text = new StringBuilder();
        Formatters.byName("table").write(Result.of(list.report()), new FormatOptions(false, false, 0, 0, false, 400), text);
        String s = text.toString();
        int longest = Arrays.stream(s.split("\n")).mapToInt(String::length).max().orElse(0);
        assertTrue(s.length() < 20_000, s.length() + " characters:\n" + s);
        assertTrue(longest <= 400, "longest line " + longest + ":\n" + s);
        assertTrue(!s.matches("(?s).*\\bid in \\((\\d+, ){6,}.*"), "no id list:\n" + s);
        for (AdviceList.Row r : list.rows()) assertTrue(s.contains(r.change()), r.change() + " printed:\n" + s);
    }
}
