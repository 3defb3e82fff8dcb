package bufq.analysis.forecast;

import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Keep;
import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.ProgramSizes;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Forecasts from part of a real series at a size held out of it, against the real compile at that
 * size: the CPU MLP at batch 8/16/32/64 and the TPU series over batch (8/16/32/48) and sequence
 * (512..4096). On the CPU MLP, where every value's bytes follow a law exactly, needs_bytes and
 * the peak are byte-exact; and
 * {@code forecast fit} names the largest size that fits, which the laws at N and N+1 bound, and
 * which is a real compile's own size when the capacity is that compile's needs.
 */
class HeldOutCompileTest {
    private static HloModule load(String rel) throws Exception {
        List<HloModule> ms = DumpLoader.load(List.of(Corpus.require(rel)));
        assertEquals(1, ms.size(), rel);
        return ms.get(0);
    }

    private static List<HloModule> load(String prefix, int... sizes) throws Exception {
        List<HloModule> out = new ArrayList<>();
        for (int s : sizes) out.add(load(prefix + s + (prefix.startsWith("tpu/") ? "/dump" : "")));
        return out;
    }

    private static long needs(HloModule m) { return ProgramSizes.of(m).needsBytes(); }

    /**
     * From every size but one, the held-out size's forecast against its real compile: the largest
     * error of needs_bytes and of the peak, as fractions of the real figures. {@code n}: each size's
     * N in the forecast's dimension (per chip on a sharded series).
     */
    private static double[] heldOut(String prefix, int[] sizes, int[] n, int from) throws Exception {
        List<HloModule> all = load(prefix, sizes);
        double[] worst = new double[2];
        for (int out = from; out < sizes.length; out++) {
            List<HloModule> rest = new ArrayList<>(all);
            HloModule held = rest.remove(out);
            Prediction p = Forecast.of(rest, null).at(n[out]);
            double needs = Math.abs(p.needsBytes() - needs(held)) / (double) needs(held);
            double peak = Math.abs(p.peakBytes() - Liveness.of(held).peakBytes()) / (double) Liveness.of(held).peakBytes();
            worst[0] = Math.max(worst[0], needs);
            worst[1] = Math.max(worst[1], peak);
        }
        return worst;
    }

    @Test void theMlpsHeldOutBatchIsTheRealCompile() throws Exception {
        int[] batches = {8, 16, 32, 64};
        double[] worst = heldOut("jax-0.10.2/series/mlp-b", batches, batches, 0);
        assertEquals(0.0, worst[0], "needs_bytes byte for byte");
        assertEquals(0.0, worst[1], "the peak byte for byte");
    }

    /** A real compile of the MLP at batch {@code b} the checkout carries ({@code fixtures/mlp-batch}). */
    private static HloModule compiled(int b) throws Exception {
        Path dir = Path.of(HeldOutCompileTest.class.getResource("/fixtures/mlp-batch/b" + b).toURI());
        List<HloModule> ms = DumpLoader.load(List.of(dir));
        assertEquals(1, ms.size(), dir.toString());
        return ms.get(0);
    }

    private static void sameAsCompiled(Prediction p, HloModule real) {
        assertEquals(needs(real), p.needsBytes(), "needs_bytes byte for byte");
        assertEquals(Liveness.of(real).peakBytes(), p.peakBytes(), "the peak byte for byte");
        assertEquals(Liveness.of(real).peakTime(), p.peakTime(), "at the real peak's step");
    }

    /**
     * Batch 96, never compiled in any series here, forecast from the corpus's 8/16/32/64 and from
     * 48/80/112 (sizes of 16 + 32k, where XLA's partial reductions have ceil(B/32) rows), is its
     * real compile: 24,530,956 bytes at the peak, needs_bytes 24,531,028.
     */
    @Test void batch96IsItsRealCompileFromEitherSeries() throws Exception {
        HloModule real = compiled(96);
        assertEquals(24_531_028L, needs(real));
        sameAsCompiled(Forecast.of(load("jax-0.10.2/series/mlp-b", 8, 16, 32, 64), null).at(96), real);
        sameAsCompiled(Forecast.of(List.of(compiled(48), compiled(80), compiled(112)), null).at(96), real);
    }

    /*
     * XLA:TPU does not compile every size alike (its tiling and fusion choices move with the size),
     * so its series are not byte-exact. Measured, the largest size held out (what a forecast is
     * for): batch 48 needs 10,940,627,456 bytes, forecast 10,955,135,114 (+0.13%), peak -32 KiB;
     * sequence 4096 needs 6,905,446,400, forecast 6,877,466,674 (-0.41%), peak -1.3%. A smaller size
     * held out is worse: sequence 2048 from 512, 1024 and 4096 forecasts a peak 41% low, batch 8
     * from 16, 32 and 48 one 10% high. Only the largest is held to a bound here.
     */
    @Test void theTpuBatchSeriesLargestHeldOutIsNearTheRealCompile() throws Exception {
        // the batch is sharded over four chips: N is the per-chip batch
        double[] worst = heldOut("tpu/series-batch/batch-", new int[] {8, 16, 32, 48}, new int[] {2, 4, 8, 12}, 3);
        assertTrue(worst[0] < 0.005 && worst[1] < 0.001, "needs and peak errors " + worst[0] + ", " + worst[1]);
    }

    @Test void theTpuSequenceSeriesLargestHeldOutIsNearTheRealCompile() throws Exception {
        int[] lengths = {512, 1024, 2048, 4096};
        double[] worst = heldOut("tpu/series-seq/seq-", lengths, lengths, 3);
        assertTrue(worst[0] < 0.005 && worst[1] < 0.02, "needs and peak errors " + worst[0] + ", " + worst[1]);
    }

    /**
     * The largest batch that fits: the law fits at N and not at N+1 (each basis); with the capacity
     * exactly batch 64's needs, from 8, 16 and 32, that is batch 64 itself, the real compile.
     */
    @Test void fitNamesTheTrueLargestBatch() throws Exception {
        List<HloModule> all = load("jax-0.10.2/series/mlp-b", 8, 16, 32, 64);
        Forecast f = Forecast.of(all.subList(0, 3), null);
        for (long capacity : new long[] {needs(all.get(3)), 105L << 20, needs(all.get(2)) + 12345}) {
            Capacity c = new Capacity(capacity, 0, "test");
            for (Largest l : f.largest(c, List.of(), Keep.ALL)) {
                if (l.largest() < 0) continue;
                long at = l.basis().startsWith("peak") ? f.at(l.largest()).peakBytes() : f.at(l.largest()).needsBytes();
                long past = l.basis().startsWith("peak") ? f.at(l.largest() + 1).peakBytes() : f.at(l.largest() + 1).needsBytes();
                assertTrue(at <= capacity && past > capacity, l + " at capacity " + capacity + ": " + at + ", then " + past);
                assertEquals(l.largest() + 1, l.next(), l.toString());
            }
        }
        Largest byNeeds = f.largest(new Capacity(needs(all.get(3)), 0, "test"), List.of(), Keep.ALL).get(0);
        assertEquals(64, byNeeds.largest(), "batch 64's own needs hold batch 64 and no more: " + byNeeds);
        assertEquals(needs(all.get(3)), byNeeds.bytes());
    }
}
