package bufq.analysis.diff;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.table.Table;
import bufq.testing.Corpus;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModulePairsTest {
    private static final Path JAX = Corpus.dir().resolve("jax-0.10.2");

    private static HloModule named(String name, int number) {
        return new TestModules.Tiny(name, 1).number(number).temp("t", "f32[1]", 0, 1, "op").build();
    }

    @Test
    void pairsByNameInOrderAndReportsLeftovers() {
        HloModule a1 = named("jit_f", 1), a2 = named("jit_f", 3), a3 = named("jit_g", 5);
        HloModule b1 = named("jit_f", 2), b2 = named("jit_h", 4);
        ModulePairs.Result r = ModulePairs.pair(List.of(a1, a2, a3), List.of(b1, b2));
        assertEquals(1, r.pairs().size());
        assertSame(a1, r.pairs().get(0).before());
        assertSame(b1, r.pairs().get(0).after());
        assertEquals(List.of(a2, a3), r.onlyBefore());
        assertEquals(List.of(b2), r.onlyAfter());
        Table t = r.unpairedTable();
        assertEquals(3, t.size());
        assertEquals("only after", t.cell(2, 0));
    }

    @Test
    void singleModulesPairWhateverTheirNames() {
        ModulePairs.Result r = ModulePairs.pair(List.of(named("a", 0)), List.of(named("b", 0)));
        assertEquals(1, r.pairs().size());
        assertTrue(r.onlyBefore().isEmpty() && r.onlyAfter().isEmpty());
    }

    @Test
    void dumpDirectoryAgainstTheSameRunWithAnalysisOff() throws Exception {
        Path on = Corpus.require(JAX.resolve("multi-module-dir")), off = Corpus.require(JAX.resolve("multi-module-dir-analysis-off"));
        ModulePairs.Result r = ModulePairs.pair(DumpLoader.load(List.of(on)), DumpLoader.load(List.of(off)));
        assertEquals(9, r.pairs().size(), "jit__normal appears twice and pairs in order");
        assertTrue(r.onlyBefore().isEmpty() && r.onlyAfter().isEmpty());
        for (ModulePairs.Pair p : r.pairs()) {
            assertEquals(p.before().info().number(), p.after().info().number());
            DiffResult d = ModuleDiff.compare(p.before(), p.after());
            assertFalse(d.peakKnown(), "analysis off: no live ranges");
            assertEquals(0, d.peakChange());
            assertNull(d.peakAfter().recomputed());
            // Same compilation: allocations are identical even without the analysis sections.
            assertEquals(0L, d.summary().stream().filter(s -> s.measure().equals("allocated, total")).findFirst()
                    .orElseThrow().change());
            Table summary = (Table) DiffTables.render(d).get(0);
            assertTrue(summary.notes().stream().anyMatch(n -> n.startsWith("peak change unknown: after has no live ranges")),
                    summary.notes()::toString);
            assertTrue(d.caveats().contains("after: no live ranges, so no peak and nothing live at it"), d.caveats()::toString);
            assertTrue(d.caveats().stream().noneMatch(c -> c.startsWith("before")), d.caveats()::toString);
        }
    }
}
