package bufq.analysis.sharding;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Combined collectives split to the leaves they carry, and gradients all-reduced whole, held to the
 * HLO text's own shardings on the TPU corpus: a reduce-scatter's element names a parameter whose
 * per-device dimensions are its own and which the text cuts over the mesh; the replicated embedding's
 * gradient is the one all-reduced whole, and its fixed compile has none.
 */
class CollectivesCorpusTest {
    static HloModule load(String folder) throws Exception {
        return DumpLoader.load(List.of(Corpus.require("tpu/" + folder + "/dump"))).get(0);
    }

    @Test
    void theFsdpStepsCombinedReduceScattersCarryShardedParametersGradients() throws Exception {
        HloModule m = load("train-fsdp");
        Shardings s = Shardings.of(m);
        Collectives c = Collectives.of(m);
        List<Collectives.Collective> scatters = c.combined().stream().filter(x -> x.kind().equals("reduce-scatter")).toList();
        assertTrue(scatters.size() >= 8, "combined reduce-scatters (TPU fusions calling %all-reduce-scatter.N): " + scatters.size());
        int traced = 0;
        for (Collectives.Collective x : scatters) {
            for (Collectives.Element e : x.elements()) {
                assertTrue(e.leaf() != null, x.name() + " operand " + e.index() + " is traced");
                ShardedParameter p = s.parameters().values().stream().filter(q -> e.path().equals(q.opName())).findFirst().orElseThrow();
                assertEquals(Arrays.toString(HloTextGraph.arrays(p.shape()).get(0)), Arrays.toString(e.dims()), x.name() + ": " + e.path());
                assertEquals(4, p.sharding().shards(), e.path() + " is cut over the 4 chips");
                traced++;
            }
            assertEquals(x.elements().size(), x.leaves().size(), x.name() + ": each operand a different leaf " + x.leaves());
        }
        assertTrue(traced >= 24, "operands traced: " + traced);
        Collectives.Collective f = c.all().get("fusion.1333");
        assertEquals(List.of("['layers'][7]['wq']", "['layers'][7]['wv']", "['pos_embed']"), f.leaves());
        assertTrue(c.reducedWhole().stream().noneMatch(x -> x.kind().equals("reduce-scatter")), "a reduce-scatter never reduces whole");
    }

    @Test
    void theReplicatedEmbeddingsGradientIsAllReducedWholeAndTheFixNoLonger() throws Exception {
        List<Collectives.Collective> whole = Collectives.of(load("oom/replicated-embedding")).reducedWhole();
        assertEquals(1, whole.size(), "whole: " + whole);
        assertEquals(List.of("['embed']"), whole.get(0).leaves());
        assertTrue(whole.get(0).whole().startsWith("all-reduced whole, not reduce-scattered: the gradient of replicated params['embed']"),
                whole.get(0).whole());
        assertEquals(List.of(), Collectives.of(load("oom/replicated-embedding-fixed")).reducedWhole(), "the fix shards it");
    }

    @Test
    void theTensorParallelMlpsCombinedAllReducesAreSplit() throws Exception {
        Collectives c = Collectives.of(load("tp-mlp"));
        assertTrue(!c.combined().isEmpty(), "tp-mlp combines its gradients' all-reduces");
        for (Collectives.Collective x : c.combined()) {
            assertEquals("all-reduce", x.kind());
            assertTrue(!x.leaves().isEmpty(), x.name() + " traced to a leaf");
        }
    }

    @Test
    void aModuleWithoutItsTextSaysWhy() throws Exception {
        Collectives c = Collectives.of(DumpLoader.load(List.of(Corpus.require("jax-0.10.2/transformer-2layer"))).get(0));
        assertTrue(c.all().isEmpty());
        assertTrue(c.missing().contains("after_optimizations.txt"), c.missing());
    }

    @Test
    void replicaGroupsGiveTheGroupSize() {
        assertEquals(4, Collectives.groupSize("{{0,1,2,3}}"));
        assertEquals(2, Collectives.groupSize("[2,2]<=[4]"));
        assertEquals(0, Collectives.groupSize(null));
    }
}
