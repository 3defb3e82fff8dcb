package bufq.analysis.oom;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which program ran out: equal evidence is ranked by what else is known of a failure. */
class ModuleRankTest {
    @Test
    void ofTwoProgramsHoldingTheRequestedSizeTheOneCompiledLaterRanksFirst() throws Exception {
        // module_0006 (a broadcast) and module_0008 (the lambda) both hold an allocation of 96,000 B
        List<HloModule> ms = DumpLoader.load(List.of(OomCorpusTest.FIXTURE.resolve("dump")));
        OomText text = OomReader.read("RESOURCE_EXHAUSTED: Out of memory allocating 96000 bytes.\n".getBytes(StandardCharsets.UTF_8));
        List<ModuleMatch> ranked = ModuleMatch.rank(text.messages().get(0), ms);
        assertTrue(ranked.size() >= 2, ranked.toString());
        assertEquals(8, ranked.get(0).module().info().number(), ranked.toString());
        assertTrue(ranked.get(0).reasons().stream().anyMatch(r -> r.startsWith("compiled after")), ranked.get(0).reasons().toString());
        assertEquals(ranked.get(0).module().handle(), OomReport.joins(text, ms).get(0).module().handle());
    }

    @Test
    void anInitialiserIsNamedSo() {
        assertTrue(ModuleMatch.initialiser("jit_init"));
        assertTrue(ModuleMatch.initialiser("jit_init_params"));
        assertTrue(ModuleMatch.initialiser("jit_model_init"));
        assertFalse(ModuleMatch.initialiser("jit_train_step"));
        assertFalse(ModuleMatch.initialiser("jit_initial_state_solver"));
    }
}
