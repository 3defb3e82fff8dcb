package bufq.analysis.sharding;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** XLA's sharding texts as HloSharding::ToString prints them, read back. */
class HloShardingTest {
    @Test
    void aTiledShardingCutsItsDimensions() {
        HloSharding s = HloSharding.parse("{devices=[4,1]<=[4]}");
        assertEquals(HloSharding.Kind.TILED, s.kind());
        assertEquals(4, s.shards());
        assertEquals(1, s.copies());
        assertFalse(s.replicated());
        assertArrayEquals(new long[] {32768, 1024}, s.globalDims(new long[] {8192, 1024}));
        assertEquals("1/4 per device", s.perDevice());
    }

    @Test
    void theLastTileDimensionReplicatesEachPiece() {
        HloSharding s = HloSharding.parse("{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
        assertEquals(2, s.shards());
        assertEquals(2, s.copies());
        assertArrayEquals(new long[] {16384, 8}, s.globalDims(new long[] {8192, 8}));
        assertEquals("1/2 per device, 2 copies", s.perDevice());
        HloSharding whole = HloSharding.parse("{devices=[1,1,4]<=[4] last_tile_dim_replicate}");
        assertTrue(whole.replicated(), "one piece on every device is replicated");
        assertEquals(1, whole.shards());
    }

    @Test
    void subgroupsOfSeveralKindsAreNotTheArraysOwn() {
        HloSharding s = HloSharding.parse("{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}");
        assertEquals(2, s.subgroups());
        assertEquals(2, s.shards());
        assertEquals(4, s.copies());
    }

    @Test
    void anExplicitDeviceListReadsAsTheIotaForm() {
        HloSharding s = HloSharding.parse("{devices=[2,2]0,2,1,3}");
        assertEquals(List.of(2L, 2L), s.tile());
        assertEquals(4, s.shards());
    }

    @Test
    void replicatedMaximalAndManualAreWholeOnADevice() {
        assertTrue(HloSharding.parse("{replicated}").replicated());
        assertEquals("replicated", HloSharding.parse("{replicated}").perDevice());
        HloSharding max = HloSharding.parse("{maximal device=0}");
        assertFalse(max.replicated(), "on one device only");
        assertEquals(1, max.shards());
        assertEquals(HloSharding.Kind.MANUAL, HloSharding.parse("{manual}").kind());
    }

    @Test
    void aTuplesLeavesAreReadInOrder() {
        HloSharding t = HloSharding.parse("{{replicated}, {devices=[4,1]<=[4]}, {devices=[1,2,1,2]<=[4] last_tile_dim_replicate}}");
        assertEquals(HloSharding.Kind.TUPLE, t.kind());
        assertEquals(3, t.elements().size());
        assertTrue(t.at("{0}").replicated());
        assertEquals(4, t.at("{1}").shards());
        assertEquals(2, t.at("{2}").shards());
        assertNull(t.at("{3}"));
        assertNull(t.at("{}"), "a tuple as a whole has no array sharding");
    }

    @Test
    void notASharding() {
        try {
            HloSharding.parse("devices=[4]");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("in braces"), e.getMessage());
            return;
        }
        throw new AssertionError("no braces accepted");
    }

    @Test
    void theHloTextGivesPartitionsAndEachParametersSharding() {
        String text = """
                HloModule jit_step, is_scheduled=true, entry_computation_layout={(f32[8,4]{1,0})->f32[8,4]{1,0}}, num_partitions=8

                %fused (p: f32[8,4]) -> f32[8,4] {
                  %p = f32[8,4]{1,0} parameter(0)
                  ROOT %n = f32[8,4]{1,0} negate(%p)
                }

                ENTRY %main.3_spmd (param: f32[8,4], param.1: f32[2], param.2: (f32[4], s32[])) -> f32[8,4] {
                  %param = f32[8,4]{1,0} parameter(0), sharding={devices=[8,1]<=[8]}, metadata={op_name="params[\\'w\\']"}
                  %param.1 = f32[2]{0} parameter(1), sharding={replicated}, metadata={op_name="params[\\'b\\']"}
                  %param.2 = (f32[4]{0}, s32[]) parameter(2), sharding={{devices=[2,4]<=[8] last_tile_dim_replicate}, {replicated}}
                  ROOT %f = f32[8,4]{1,0} fusion(%param), kind=kLoop, calls=%fused
                }
                """;
        Shardings s = Shardings.ofText(text, "module_0000.jit_step.cpu_after_optimizations.txt");
        assertEquals(8, s.partitions());
        assertEquals(1, s.replicas());
        assertEquals(List.of("param", "param.1", "param.2"), List.copyOf(s.parameters().keySet()), "the fusion's parameter is not the entry's");
        ShardedParameter w = s.parameters().get("param");
        assertEquals("params['w']", w.opName());
        assertEquals(0, w.number());
        assertEquals(8, w.sharding().shards());
        assertTrue(s.parameters().get("param.1").sharding().replicated());
        assertEquals(HloSharding.Kind.TUPLE, s.parameters().get("param.2").sharding().kind());
        assertEquals(2, s.parameters().get("param.2").sharding().at("{0}").shards());
        assertTrue(s.perDeviceNote().startsWith("per device, 1 of 8 (num_partitions=8 in module_0000"), s.perDeviceNote());
    }

    @Test
    void aModuleForOneDeviceSaysNothingPerDevice() {
        Shardings s = Shardings.ofText("HloModule jit_f, entry_computation_layout={()->f32[]}\n\nENTRY %main () -> f32[] {\n}\n", "f.txt");
        assertEquals(1, s.partitions());
        assertNull(s.perDeviceNote());
        assertFalse(Shardings.ofText("not hlo", "x.txt").known(), "text without a HloModule line is not read as one");
    }

    @Test
    void theLeafOfAPathIsWhatParamsAndTheirOptimizerStateShare() {
        assertEquals("['embed']", Replication.leaf("params['embed']"));
        assertEquals("['embed']", Replication.leaf("opt_state[0].mu['embed']"));
        assertEquals("[0]['w']", Replication.leaf("opt_state[0].nu[0]['w']"));
        assertEquals("[0]['w']", Replication.leaf("params[0]['w']"));
        assertEquals("['a.b']", Replication.leaf("params['a.b']"), "a dot inside quotes is the key's");
    }
}
