package bufq.analysis.forecast;

import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Keep;
import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.ProgramSizes;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Forecasts far from the loaded sizes, where XLA packs the temp otherwise than at the template: the
 * CPU MLP from batch 48, 80 and 112 at 2277 (its activations 2.2 times a weight matrix, one of
 * them out of the donated weight buffer it shared at 112) and at 2417, the largest batch whose
 * real compile fits 105 MiB, against the real compiles (fixtures/mlp-batch, its README says how they
 * were made). And the heap simulator on the corpus copy's temps: it gives back each compiled
 * packing but a while loop's.
 */
class FarForecastTest {
    private static HloModule fixture(String name) throws Exception {
        try {
            Path p = Path.of(FarForecastTest.class.getResource("/fixtures/mlp-batch/" + name).toURI());
            return DumpLoader.load(List.of(p)).get(0);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Forecast series() throws Exception {
        return Forecast.of(List.of(fixture("b48"), fixture("b80"), fixture("b112")), null);
    }

    /** The forecast at {@code n} is the real compile at {@code n}: peak, its step, needs_bytes, every temp offset. */
    private static void sameAsCompiled(Forecast f, int n) throws Exception {
        HloModule real = fixture("b" + n);
        Prediction p = f.at(n);
        Liveness l = Liveness.of(real);
        assertEquals(l.peakBytes(), p.peakBytes(), "peak at " + n);
        assertEquals(l.peakTime(), p.peakTime(), "peak step at " + n);
        assertEquals(ProgramSizes.of(real).needsBytes(), p.needsBytes(), "needs_bytes at " + n);
        Map<String, HloValue> compiled = new HashMap<>();
        for (HloValue v : real.values()) compiled.put(v.key(), v);
        int temps = 0;
        for (HloValue v : p.module().values()) {
            BufferAllocation a = p.module().allocation(v.allocation());
            if (!a.preallocatedTemp()) continue;
            HloValue r = compiled.get(v.key());
            assertTrue(real.allocation(r.allocation()).preallocatedTemp(), v.key() + " is in the temp at " + n);
            assertEquals(r.offset(), v.offset(), v.key() + "'s offset at " + n);
            temps++;
        }
        assertEquals(21, temps, "the temp's values at " + n);
    }

    @Test void forecastFarOutIsTheRealCompile() throws Exception {
        Forecast f = series();
        sameAsCompiled(f, 2277);
        sameAsCompiled(f, 2417);
        sameAsCompiled(f, 2418);
        assertEquals(104_931_340L, f.at(2277).peakBytes(), "before the simulator: 110,059,528 B at step 23");
    }

    /** 105 MiB holds the real batch 2417 (110,092,372 B) and not 2418 (110,129,236 B): fit names 2417. */
    @Test void fitNamesTheRealLargestBatch() throws Exception {
        long capacity = 105L << 20;
        assertTrue(ProgramSizes.of(fixture("b2417")).needsBytes() <= capacity);
        assertTrue(ProgramSizes.of(fixture("b2418")).needsBytes() > capacity);
        for (Largest l : series().largest(new Capacity(capacity, 0, "test"), List.of(), Keep.ALL))
            assertEquals(2417, l.largest(), l.toString());
    }

    /**
     * The transformer from sequence 128 and 256 at 512: XLA moves three weight copies out of the temp
     * into parameter buffers that activations outgrew, which the template cannot tell, so the temp
     * keeps its groups (needs_bytes 338,559,104 against the real 337,510,528, as before).
     */
    @Test void aTempThatCouldMoveKeepsItsGroups() throws Exception {
        List<HloModule> ms = new ArrayList<>();
        for (String s : List.of("transformer-s128", "transformer-s256"))
            ms.add(DumpLoader.load(List.of(Corpus.require("jax-0.10.2/series/" + s))).get(0));
        ProgramSeries series = ProgramSeries.of(ms, null);
        TempPacking p = Projection.packing(series, 1, 512);
        assertTrue(p.size().isEmpty(), "no temp simulated at 512");
        assertTrue(p.kept().get(41).contains("parameter's buffer"), p.kept().toString());
        assertTrue(Projection.packing(series, 1, 256).size().containsKey(41), "the template's own size is simulated");
        assertEquals(338_559_104L, Forecast.of(ms, null).at(512).needsBytes());
    }

    /** The simulator gives back the compiled temps of the corpus copy; a while loop's phi buffers it does not read. */
    @Test void simulatorReproducesCompiledTemps() throws Exception {
        List<String> exact = new ArrayList<>();
        for (String d : List.of("jax-0.10.2/transformer-2layer", "jax-0.10.2/bf16-mlp", "jax-0.10.2/cnn", "jax-0.10.2/train/mlp-adam",
                "jax-0.10.2/pairs/transformer-4layer", "jax-0.10.2/pairs/transformer-4layer-remat", "jax-0.10.2/series/mlp-b8",
                "jax-0.10.2/series/mlp-b64")) {
            HloModule m = DumpLoader.load(List.of(Corpus.require(d))).get(0);
            for (BufferAllocation a : m.allocations())
                if (a.preallocatedTemp()) assertTrue(TempPacking.reproduced(m).contains(a.index()), d + " allocation " + a.index());
            exact.add(d);
        }
        assertEquals(8, exact.size());
        HloModule rnn = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/rnn-scan"))).get(0);
        for (BufferAllocation a : rnn.allocations())
            if (a.preallocatedTemp()) assertFalse(TempPacking.reproduced(rnn).contains(a.index()), "rnn-scan's temp keeps its groups");
    }
}
