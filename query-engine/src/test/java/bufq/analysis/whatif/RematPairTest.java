package bufq.analysis.whatif;

import bufq.units.Units;
import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The remat pair docs/commands.md quotes (4-layer transformer without and with {@code jax.checkpoint}):
 * the whatif bound on the first against the second's real peak, and the figures that explain the
 * gap, computed here and looked up in the whatif and diff sections of docs/commands.md.
 */
class RematPairTest {
    static final String ACTIVATIONS = "live at peak and op_name ~ \"jvp\\(\" and not op_name ~ \"transpose\"";

    private static List<Object> select(HloModule m, String where) throws Exception {
        return Query.compile("values where " + where, Catalog.standard()).select(new EvalContext(m));
    }

    private static Outcome whatif(HloModule m, String text) throws Exception {
        return EditSweep.run(m, EditParser.parse(text, Set.copyOf(Catalog.standard().entities())).edits(), Catalog.standard(),
                TilingModel.TPU, n -> null);
    }

    private static String mib(long bytes) {
        return Units.human(bytes).replace("MiB", " MiB");
    }

    @Test
    void theReadmeQuotesTheRealNumbers() throws Exception {
        HloModule plain = WhatIfCorpusTest.load("jax-0.10.2/pairs/transformer-4layer");
        HloModule remat = WhatIfCorpusTest.load("jax-0.10.2/pairs/transformer-4layer-remat");
        String readme = Files.readString(Path.of(System.getProperty("bufq.root", ".")).resolve("docs/commands.md"));
        String whatifSection = readme.substring(readme.indexOf("**A what-if against a real `jax.checkpoint`.**"));
        whatifSection = whatifSection.substring(0, whatifSection.indexOf("\n## ")).replace("\n", " ");
        String diffSection = readme.substring(readme.indexOf("## Comparing two compilations"), readme.indexOf("## Opening the answers")).replace("\n", " ");

        int activations = select(plain, ACTIVATIONS).size();
        Outcome bound = whatif(plain, "remat where " + ACTIVATIONS);
        long real = Liveness.of(remat).peakBytes();
        assertEquals(49, activations);
        assertEquals(44_072_964L, bound.after().peakBytes(), "the whatif bound");
        assertEquals(157_450_248L, real, "the remat compilation's real peak");
        assertEquals(0, whatif(plain, "end where " + ACTIVATIONS + " at last_use").saved(), "XLA already frees at the last use");

        // The gap: the recomputed values are born early and wait at the remat compilation's peak.
        List<Object> recomputed = select(remat, "op_name ~ \"rematted_computation\"");
        int firstBirth = recomputed.stream().map(HloValue.class::cast).filter(HloValue::hasRange).mapToInt(HloValue::rangeStart).min().orElseThrow();
        List<Object> atPeak = select(remat, "op_name ~ \"rematted_computation\" and live at peak");
        long atPeakBytes = atPeak.stream().map(HloValue.class::cast).mapToLong(HloValue::size).sum();

        for (String quoted : List.of(activations + " forward activations live at the peak",
                "from " + mib(bound.before().peakBytes()) + " to " + mib(bound.after().peakBytes()),
                "peaks at " + mib(real), "from step " + firstBirth + " on",
                atPeak.size() + " of them (" + mib(atPeakBytes) + ")"))
            assertTrue(whatifSection.contains(quoted), "docs/commands.md's whatif section says: " + quoted);
        String row = "| peak, occupied | " + Units.human(Liveness.of(plain).peakBytes()) + " | " + Units.human(real) + " | "
                + Units.human(real - Liveness.of(plain).peakBytes()) + " |";
        assertTrue(diffSection.contains(row), "docs/commands.md's diff section shows " + row);
        assertTrue(diffSection.contains("(" + mib(Liveness.of(plain).peakBytes()).replace(" MiB", "") + " -> " + mib(real) + ")"),
                "the diff section's sentence quotes the same peaks");
    }
}
