package bufq.analysis.category;

import bufq.analysis.liveness.Liveness;
import bufq.analysis.sharding.Collectives;
import bufq.analysis.sharding.HloSharding;
import bufq.analysis.sharding.Shardings;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real XLA:CPU SPMD dump (a public repository's shard_map program over 4 CPU devices, its
 * buffer-assignment file alone): a CPU {@code all-gather} of a computed value is a collective, not a
 * gathered weight, by the classifier and by the independent trace alike; the entry parameters'
 * shardings in its instructions parse; and without the HLO text the module names the file that would
 * give the sharding and the collectives' operands.
 */
class CpuShardedDumpTest {
    private static final String DUMP = "public/jackmcarthur_lorrax_sandbox__Si-NONBISPINOR_CPU_2026-05-20-mu384_fft_probe-bc32-xla_dump__"
            + "module_0245.jit_fn.cpu-buffer-assignment.txt";

    @Test
    void aCpuAllGatherOfAComputedValueIsACollective() throws Exception {
        Path f = Corpus.require(DUMP);
        HloModule m = DumpLoader.load(List.of(f)).get(0);
        Categories c = Categories.of(m);
        int gathers = 0;
        for (int i = 0; i < m.values().size(); i++) {
            HloValue v = m.values().get(i);
            if (!"all-gather".equals(m.instruction(v.name()).opcode())) continue;
            gathers++;
            assertEquals("collectives", c.name(i), v.label());
            assertTrue(m.instruction(v.name()).attributes().contains("replica_groups={{0,1,2,3}}"), v.label());
        }
        assertEquals(1, gathers, "the dump's one all-gather (all_gather.9)");
        GatherTrace trace = new GatherTrace(null, f);
        GatherTrace.Source s = trace.of("all_gather.9", List.of());
        assertFalse(s.gathered() && s.parameter() != null, "it gathers a fusion's result, no parameter");
        long row = Categories.bytesAt(m, CategoryRules.NONE, Liveness.of(m).peakTime()).getOrDefault(Categories.GATHERED_WEIGHTS, 0L);
        assertEquals(0L, row, "no gathered weights at the peak");
    }

    @Test
    void itsParametersShardingsParseAndTheModuleNamesTheTextThatWouldGiveThem() throws Exception {
        Path f = Corpus.require(DUMP);
        String text = Files.readString(f);
        assertTrue(text.contains("sharding={devices=[1,2,1,1,2]<=[4] last_tile_dim_replicate}"), "the dump's own sharding text");
        HloSharding h = HloSharding.parse("{devices=[1,2,1,1,2]<=[4] last_tile_dim_replicate}");
        assertEquals(2, h.shards(), "dim 1 split 2 ways, each piece on 2 of the 4 devices");
        assertFalse(h.replicated());
        assertTrue(HloSharding.parse("{replicated}").replicated());
        HloModule m = DumpLoader.load(List.of(f)).get(0);
        Shardings s = Shardings.of(m);
        assertFalse(s.known());
        assertNull(s.perDeviceNote());
        assertTrue(s.missing().startsWith("jackmcarthur_lorrax_sandbox__Si-NONBISPINOR_CPU_2026-05-20-mu384_fft_probe-bc32-xla_dump__"
                + "module_0245.jit_fn.cpu.txt (the optimized HLO text"), s.missing());
        assertTrue(Collectives.of(m).missing().contains("module_0245.jit_fn.cpu.txt"), Collectives.of(m).missing());
    }
}
