package bufq.analysis.advise;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On XLA:TPU a figure for a program over what it is offered is cut to what brings its peak to 93% of
 * the offer; elsewhere, and where it claims no more, it stands.
 */
class RecompilationTest {
    private static HloModule module(String fixture) throws Exception {
        Path base = Path.of(System.getProperty("bufq.root", ".")).resolve("query-engine/src/test/resources/fixtures").resolve(fixture);
        return DumpLoader.load(List.of(base)).get(0);
    }

    @Test
    void aTpuFigureIsCutToWhatFillsTheOfferTo93Percent() throws Exception {
        HloModule tpu = module("tpu");
        assertEquals("tpu", tpu.info().backend());
        long offered = 16_906_190_848L, need = 3_654_075_904L;
        Recompilation.Figure whatif = new Recompilation.Figure(9_499_816_448L, Recompilation.EXACT, "");
        Recompilation.Figure cut = Recompilation.filled(tpu, whatif, need, offered);
        assertEquals(need + 1_183_433_359L, cut.saves(), "7% of the offer left");
        assertEquals(Recompilation.ESTIMATE, cut.kind());
        assertTrue(cut.finding().contains("93% of the 15.7GiB offered (the what-if: 8.8GiB)"), cut.finding());
        // no more than that, or nothing known to cut it by: as it is
        Recompilation.Figure small = new Recompilation.Figure(need, Recompilation.EXACT, "");
        assertSame(small, Recompilation.filled(tpu, small, need, offered));
        assertSame(whatif, Recompilation.filled(tpu, whatif, -1, offered));
        assertSame(whatif, Recompilation.filled(tpu, whatif, need, -1));
    }

    @Test
    void aCpuFigureStands() throws Exception {
        HloModule cpu = module("mlp-batch/b2418");
        assertEquals("cpu", cpu.info().backend());
        Recompilation.Figure whatif = new Recompilation.Figure(9_499_816_448L, Recompilation.EXACT, "");
        assertSame(whatif, Recompilation.filled(cpu, whatif, 3_654_075_904L, 16_906_190_848L));
    }
}
