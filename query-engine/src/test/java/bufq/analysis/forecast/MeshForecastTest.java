package bufq.analysis.forecast;

import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.analysis.fit.Capacity;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.analysis.sharding.ShardingsCorpusTest;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code forecast chips}: the corpus has no program compiled at two mesh sizes, so the sharded
 * parameters' part (the law) is held to what meta.json says JAX was asked for: each argument cut
 * over every chip holds its global bytes over N on N devices.
 */
class MeshForecastTest {
    private static MeshForecast of(HloModule m) {
        return MeshForecast.of(m, Catalog.standard(), TilingModel.TPU, n -> null);
    }

    private static long bytes(String dtype, long[] dims) {
        long n = switch (ShardingsCorpusTest.dtype(dtype)) {
            case "f32", "s32", "u32" -> 4;
            case "bf16", "f16" -> 2;
            default -> 1;
        };
        for (long d : dims) n *= d;
        return n;
    }

    private static void lawAgreesWithMetaJson(String folder) throws Exception {
        Path f = Corpus.require(folder);
        String meta = Files.readString(f.resolve("meta.json"));
        HloModule m = DumpLoader.load(List.of(f.resolve("dump"))).get(0);
        MeshForecast x = of(m);
        long chips = x.devices();
        long now = 0, global = 0;
        for (Map.Entry<String, ShardingsCorpusTest.Argument> e : ShardingsCorpusTest.arguments(meta).entrySet()) {
            ShardingsCorpusTest.Argument a = e.getValue();
            long g = bytes(a.dtype(), a.global()), p = bytes(a.dtype(), a.perChip());
            if (g != p * chips) continue;   // cut over every chip: the law's part
            now += p;
            global += g;
        }
        MeshForecast.Share law = x.shares().get(MeshForecast.Part.SHARDED.ordinal());
        assertEquals(now, law.bytes(), folder + ": the sharded part now is meta.json's per-chip bytes");
        for (long n : new long[] {1, 2, 8, 16, 64})
            assertEquals(Math.round((double) global / n), law.bytesAt(n, chips), folder + ": at " + n + " devices, global bytes / N");
        // more devices never raise the peak, fewer never lower it; at its own size it is the dump's
        long own = Liveness.of(m).peakBytes(0);
        assertEquals(own, x.at(chips).peakBytes());
        assertTrue(x.at(chips * 2).peakBytes() <= own && x.at(chips / 2).peakBytes() >= own, folder);
    }

    @Test
    void theFsdpTrainingStepsShardedParametersFollowOneOverN() throws Exception {
        lawAgreesWithMetaJson("tpu/train-fsdp");
    }

    @Test
    void theTensorParallelMlpOnTwoByTwoFollowsItsSharding() throws Exception {
        lawAgreesWithMetaJson("tpu/tp-mlp");
    }

    @Test
    void theReplicatedEmbeddingStaysWholeAndTheFewestFittingDevicesAreFound() throws Exception {
        Path f = Corpus.require("tpu/oom/replicated-embedding");
        MeshForecast x = of(DumpLoader.load(List.of(f.resolve("dump"))).get(0));
        MeshForecast.Share replicated = x.shares().get(MeshForecast.Part.REPLICATED.ordinal());
        assertEquals(replicated.bytes(), replicated.bytesAt(64, x.devices()), "replicated parameters stay whole");
        long own = x.at(x.devices()).peakBytes();
        Capacity c = new Capacity(own, 0, "the dump's own peak");
        long fewest = x.smallestFitting(c, MeshForecast.MAX_DEVICES);
        assertTrue(fewest <= x.devices() && fewest >= 1, "the compiled size fits its own peak: " + fewest);
        assertTrue(fewest == 1 || x.at(fewest - 1).peakBytes() > own, "one fewer does not fit");
        assertEquals(-1, x.smallestFitting(new Capacity(replicated.bytes() / 2, 0, "less than the replicated part"), MeshForecast.MAX_DEVICES),
                "no mesh fits less than what stays whole");
    }

}
