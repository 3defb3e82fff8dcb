package bufq.analysis.advise;

import bufq.analysis.fit.Capacity;
import bufq.analysis.oom.OomReader;
import bufq.analysis.oom.OomText;
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
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertTrue(note.endsWith("rank 1 makes ranks " + (names.indexOf("microbatch 16 ways") + 1) + " and " + (names.indexOf("f32") + 1)
                + " together, measured as one what-if"), note);
    }

    @Test
    void whenNoSetSavesEnoughTheNoteSaysSo() throws Exception {
        AdviceList l = advise(2_000_000);
        assertTrue(l.rows().stream().noneMatch(r -> r.change().contains(" + ")), l.rows().toString());
        assertTrue(l.notes().get(0).contains("no single change saves that much, nor two or three of the exact and upper-bound rows"
                + " together"), l.notes().get(0));
    }

    @Test
    void whenOneRowIsEnoughNothingIsCombined() throws Exception {
        AdviceList l = advise(5_000_000);
        assertTrue(l.rows().get(0).saves() >= l.over(), l.rows().get(0).toString());
        assertTrue(l.rows().stream().noneMatch(r -> r.change().contains(" + ")), l.rows().toString());
    }
}
