package bufq.analysis.advise;

import bufq.analysis.fit.Capacity;
import bufq.analysis.oom.OomReader;
import bufq.analysis.oom.OomText;
import bufq.analysis.whatif.Edit;
import bufq.analysis.whatif.EditParser;
import bufq.analysis.whatif.EditSweep;
import bufq.api.Advise;
import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Changes made together, on the real RNN that ran out of memory, under capacities tighter than the
 * one it ran with: where no row saves what it is over, the pair that does is listed first, measured
 * as one what-if; where no pair or three do, the note says so and what is left.
 */
class CombinationTest {
    private static final Path RNN = Path.of(System.getProperty("bufq.root", ".")).resolve("query-engine/src/test/resources/fixtures/rnn-oom");

    private static AdviceList advise(long capacityKib) throws Exception {
        HloModule m = DumpLoader.load(List.of(RNN.resolve("failing"))).get(0);
        OomText oom = OomReader.read(Files.readString(RNN.resolve("run.log")));
        return AdviceListTest.advise(m, new Advise.Ask(List.of(), oom, "run.log", List.of(m),
                new Capacity(capacityKib * 1024, 0, "--capacity", false), Catalog.standard(), TilingModel.NONE, n -> null));
    }

    @Test
    void aPairThatSavesWhatNoRowSavesComesFirst() throws Exception {
        AdviceList l = advise(3_500_000);
        AdviceList.Row top = l.rows().get(0);
        assertEquals("microbatch 16 ways + f32", top.change(), l.rows().toString());
        assertTrue(top.saves() >= l.over(), top.saves() + " B against " + l.over() + " B over");
        for (AdviceList.Row r : l.rows().subList(1, l.rows().size()))
            assertTrue(r.saves() < l.over(), r.change() + " alone saves enough: nothing to combine");
        assertEquals(Recompilation.EXACT, top.figure());
        assertTrue(top.jax().contains("swapaxes(0, 1)") && top.jax().contains("astype(jnp.bfloat16)"), top.jax());
        // the whatif line reproduces the pair's figure
        var edits = EditParser.parse(top.statement().substring("whatif ".length()), Set.copyOf(Catalog.standard().entities())).edits();
        assertEquals(top.saves(), EditSweep.run(l.module(), edits, Catalog.standard(), TilingModel.NONE, n -> null).saved(), top.statement());
        // together it saves more than either part alone, and the note names the parts by rank
        List<String> names = l.rows().stream().map(AdviceList.Row::change).toList();
        String note = l.notes().get(0);
        assertTrue(note.contains("rank 1 makes ranks " + (names.indexOf("microbatch 16 ways") + 1) + " and " + (names.indexOf("f32") + 1)
                + " together, measured as one what-if"), note);
    }

    @Test
    void whenNoSetSavesEnoughTheNoteSaysSo() throws Exception {
        AdviceList l = advise(2_000_000);
        assertTrue(l.rows().stream().noneMatch(r -> r.change().contains(" + ")), l.rows().toString());
        assertTrue(l.notes().get(0).contains("no single change saves that much, nor two or three of the exact and upper-bound rows"
                + " together"), l.notes().get(0));
    }

    /**
     * Which rows make a set: a value is stored in bf16 once, so two bf16 rows on the same values do not
     * combine; a dropped value is not also scaled; a microbatch of bf16 values is a quarter of each.
     */
    @Test
    void rowsCombineOnlyWhereTheirEditsDo() throws Exception {
        HloModule m = DumpLoader.load(List.of(RNN.resolve("failing"))).get(0);
        List<bufq.model.HloValue> v = new java.util.ArrayList<>(m.values());
        String x = Recompilation.EXACT;
        Edit.Where a = Edit.Where.of("id = 1"), b = Edit.Where.of("id = 2");
        var f32 = new AdviceList.Row("f32", 60, x, 60L, false, Advice.Effect.LOWERS_PRECISION, "x.astype(jnp.bfloat16)", "f", "whatif a", List.of(v.get(0), v.get(1)));
        var ysBf16 = new AdviceList.Row("scan ys in bf16", 50, x, 50L, false, Advice.Effect.LOWERS_PRECISION, "y.astype(jnp.bfloat16)", "f", "whatif b", List.of(v.get(1)));
        var noYs = new AdviceList.Row("no scan ys", 55, Recompilation.BOUND, 55L, false, Advice.Effect.KEEPS, "jax.lax.scan(...)", "f", "whatif c", List.of(v.get(1)));
        var micro = new AdviceList.Row("microbatch 4 ways", 40, x, 40L, false, Advice.Effect.CUTS, "jax.lax.scan(...)", "f", "whatif d",
                List.of(v.get(0), v.get(1), v.get(2)));
        Map<AdviceList.Row, List<Edit>> edits = new IdentityHashMap<>();
        edits.put(f32, List.of(Edit.Scale.of(a, 0.5)));
        edits.put(ysBf16, List.of(Edit.Scale.of(b, 0.5)));
        edits.put(noYs, List.of(Edit.Drop.of(b)));
        edits.put(micro, List.of(Edit.Scale.of(a, 0.25)));
        Combination.Measure sum = es -> 100;   // every set measured saves enough: only compatibility decides
        Combination c = Combination.find(List.of(f32, noYs, ysBf16, micro), edits, 90, sum);
        assertEquals(List.of(f32, micro), c.parts(), "exact and keeping every value: bf16 with a microbatch");
        // without the microbatch: f32 and the ys in bf16 share a value (bf16 once), the ys dropped are not also scaled
        assertNull(Combination.find(List.of(noYs, ysBf16), edits, 90, sum));
        assertNull(Combination.find(List.of(f32, ysBf16), edits, 90, sum));
        // a drop of values another row does not touch combines, the scales first in the one what-if
        var other = new AdviceList.Row("no scan ys", 55, Recompilation.BOUND, 55L, false, Advice.Effect.KEEPS, "jax.lax.scan(...)", "f", "whatif e", List.of(v.get(3)));
        edits.put(other, List.of(Edit.Drop.of(b)));
        Combination d = Combination.find(List.of(other, ysBf16), edits, 90, sum);
        assertEquals(List.of(other, ysBf16), d.parts());
        assertTrue(d.edits().get(0) instanceof Edit.Scale && d.edits().get(1) instanceof Edit.Drop, d.edits().toString());
    }

    @Test
    void whenOneRowIsEnoughNothingIsCombined() throws Exception {
        AdviceList l = advise(5_000_000);
        assertTrue(l.rows().get(0).saves() >= l.over(), l.rows().get(0).toString());
        assertTrue(l.rows().stream().noneMatch(r -> r.change().contains(" + ")), l.rows().toString());
    }
}
