package bufq.analysis.forecast;

import bufq.dump.DumpLoader;
import bufq.analysis.fit.Capacity;
import bufq.analysis.fit.Fit;
import bufq.analysis.fit.Keep;
import bufq.analysis.fit.Program;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.ProgramSizes;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Forecasts held to real compilations: the corpus's MLP at batch 8/16/32/64 (copied into the
 * checkout, so a bare clone runs these) and transformer at sequence 128/256/512 (skipped without the corpus).
 */
class ForecastCorpusTest {
    private static final int[] BATCHES = {8, 16, 32, 64};

    private static HloModule load(String rel) throws Exception {
        List<HloModule> ms = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/series/" + rel)));
        assertEquals(1, ms.size(), rel);
        return ms.get(0);
    }

    private static List<HloModule> mlp() throws Exception {
        List<HloModule> out = new ArrayList<>();
        for (int b : BATCHES) out.add(load("mlp-b" + b));
        return out;
    }

    private static long peak(HloModule m) { return Liveness.of(m).peakBytes(); }

    @Test void anyThreeBatchesForecastTheFourthsPeakWithinTwoPercent() throws Exception {
        List<HloModule> all = mlp();
        for (int out = 0; out < all.size(); out++) {
            List<HloModule> three = new ArrayList<>(all);
            HloModule held = three.remove(out);
            Forecast f = Forecast.of(three, null);
            assertEquals("x.1[0]", f.dimension());
            Prediction p = f.at(BATCHES[out]);
            double err = Math.abs(p.peakBytes() - peak(held)) / (double) peak(held);
            assertTrue(err < 0.02, "batch " + BATCHES[out] + ": forecast " + p.peakBytes() + " vs " + peak(held));
            assertEquals(Liveness.of(held).peakTime(), p.peakTime(), "the peak step");
            double needs = Math.abs(p.needsBytes() - ProgramSizes.of(held).needsBytes()) / (double) ProgramSizes.of(held).needsBytes();
            assertTrue(needs < 0.02, "needs_bytes at batch " + BATCHES[out]);
        }
    }

    @Test void leaveOneOutResidualsAreTheHeldOutForecasts() throws Exception {
        Forecast f = Forecast.of(mlp(), null);
        List<Residual> rs = f.residuals();
        assertEquals(4, rs.size());
        for (Residual r : rs) {
            assertNull(r.why(), r.handle());
            assertTrue(Math.abs(r.peakErrorFraction()) < 0.02, r.toString());
        }
        // with two sizes there is nothing to leave out
        Forecast two = Forecast.of(mlp().subList(0, 2), null);
        assertTrue(two.residuals().stream().allMatch(r -> r.peakForecast() == null && r.why() != null));
    }

    @Test void theLawsAreTheShapesAffineInTheBatch() throws Exception {
        Forecast f = Forecast.of(mlp().subList(0, 3), null);
        Table laws = (Table) f.laws(64).get(0);
        int shape = laws.columnIndex("shape"), law = laws.columnIndex("bytes_law"), value = laws.columnIndex("value");
        boolean found = false;
        for (int i = 0; i < laws.size(); i++) {
            if (!"x.1".equals(laws.cell(i, value))) continue;
            found = true;
            assertEquals("f32[N,1024]", laws.cell(i, shape));
            assertEquals("4096·N", laws.cell(i, law));
            assertEquals(List.of(0L, 4096L), laws.cell(i, laws.columnIndex("coefficients")));
            assertEquals(4096L * 64, laws.cell(i, laws.columnIndex("bytes")));
        }
        assertTrue(found, "x.1 has a law");
    }

    @Test void twoSequenceLengthsForecastTheThirdsPeakWithinFivePercent() throws Exception {
        HloModule s128 = load("transformer-s128"), s256 = load("transformer-s256"), s512 = load("transformer-s512");
        Forecast f = Forecast.of(List.of(s128, s256), null);
        Prediction p = f.at(512);
        double err = Math.abs(p.peakBytes() - peak(s512)) / (double) peak(s512);
        assertTrue(err < 0.05, "forecast " + p.peakBytes() + " vs " + peak(s512));
        // attention's S×S: some law is quadratic in the length
        Table laws = (Table) f.laws(512).get(0);
        boolean quadratic = false;
        for (int i = 0; i < laws.size(); i++) quadratic |= String.valueOf(laws.cell(i, laws.columnIndex("bytes_law"))).contains("N²");
        assertTrue(quadratic, "an attention matrix grows with the square");
    }

    /**
     * What holds the forecast peak, by category, is what holds the real compilation's peak: from
     * sequence 128 and 256, the 512 step's residuals, gradients and the rest as blame by category
     * counts them on the real 512 dump (with the categories' partition).
     */
    @Test void theForecastPeakByCategoryIsTheRealCompilations() throws Exception {
        HloModule s128 = load("transformer-s128"), s256 = load("transformer-s256"), s512 = load("transformer-s512");
        Table t = (Table) Forecast.of(List.of(s128, s256), null).report(512, 5).get(2);
        assertEquals("the forecast peak by category", t.title());
        java.util.Map<String, Long> forecast = new java.util.HashMap<>();
        long sum = 0;
        for (int i = 0; i < t.size(); i++) {
            long b = ((Number) t.cell(i, t.columnIndex("bytes"))).longValue();
            forecast.put(String.valueOf(t.cell(i, t.columnIndex("category"))), b);
            sum += b;
        }
        assertEquals(peak(s512), sum, "the rows add up to the forecast peak");
        java.util.Map<String, Long> real = bufq.analysis.category.Categories.bytesAt(s512, bufq.analysis.category.CategoryRules.NONE,
                bufq.analysis.liveness.Liveness.of(s512).peakTime());
        real.values().removeIf(v -> v == 0);
        assertEquals(real, forecast);
        assertTrue(forecast.get("residuals") > sum / 2, "activations saved for the backward pass hold most of it: " + forecast);
    }

    @Test void fitAgreesWithTheRealCompilations() throws Exception {
        List<HloModule> all = mlp();
        Forecast f = Forecast.of(all.subList(0, 3), null);
        long needs32 = ProgramSizes.of(all.get(2)).needsBytes(), needs64 = ProgramSizes.of(all.get(3)).needsBytes();
        long peak32 = peak(all.get(2)), peak64 = peak(all.get(3));
        // between the real batch 32 and 64: the largest that fits is from 32 to 63
        Capacity between = new Capacity((needs32 + needs64) / 2, 0, "test");
        for (Largest l : f.largest(between, List.of(), Keep.ALL)) {
            assertTrue(l.largest() >= 32 && l.largest() < 64, l.toString());
            assertEquals(l.largest() + 1, l.next(), "sizes step by 1");
        }
        // exactly batch 64's figures: 64 fits, by each basis
        Capacity at64 = new Capacity(Math.max(needs64, peak64), 0, "test");
        for (Largest l : f.largest(at64, List.of(), Keep.ALL)) assertTrue(l.largest() >= 64, l.toString());
        Prediction p = f.at(64);
        assertTrue(f.fitAt(p, List.of(), Keep.ALL, at64).fits());
        assertTrue(peak32 < peak64);
        Capacity below = new Capacity(needs64 - 1, 0, "test");
        assertTrue(!f.fitAt(p, List.of(), Keep.ALL, below).fits(), "batch 64 does not fit one byte below its needs");
    }

    @Test void differentProgramsAreRefusedWithTheValuesThatDidNotPair() throws Exception {
        List<HloModule> two = List.of(load("mlp-b8"), load("transformer-s128"));   // skips without the corpus
        NotASeries e = assertThrows(NotASeries.class, () -> Forecast.of(two, null));
        assertTrue(e.getMessage().contains("did not pair"), e.getMessage());
        assertNotNull(e.details());
        assertTrue(e.details().size() > 0);
    }

    @Test void theSameSizeTwiceIsNoSeries() throws Exception {
        HloModule b8 = load("mlp-b8");
        HloModule again = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/series/mlp-b8"))).get(0);
        NotASeries e = assertThrows(NotASeries.class, () -> Forecast.of(List.of(b8, again), null));
        assertTrue(e.getMessage().contains("no entry parameter's shape differs"), e.getMessage());
    }

    @Test void aDimensionThatDoesNotVaryIsRefusedNamingThoseThatDo() throws Exception {
        NotASeries e = assertThrows(NotASeries.class, () -> Forecast.of(mlp(), "ps_0___w__.1[0]"));
        assertTrue(e.getMessage().contains("x.1[0]"), e.getMessage());
        assertEquals("x.1[0]", Forecast.of(mlp(), "x[0]").dimension());
        assertEquals("x.1[0]", Forecast.of(mlp(), "x").dimension());
    }

    @Test void theReportSaysThePeakItsStepAndWhatHoldsIt() throws Exception {
        List<Output> out = Forecast.of(mlp().subList(0, 3), null).report(64, 5);
        Table summary = (Table) out.get(0), holders = (Table) out.get(1), laws = (Table) out.get(out.size() - 1);
        assertEquals(peak(load("mlp-b64")), summary.cell(0, summary.columnIndex("peak_bytes")));
        assertEquals(27L, summary.cell(0, summary.columnIndex("peak_step")));
        assertTrue(holders.size() > 0 && holders.size() <= ForecastTables.HOLDERS);
        assertEquals(5, laws.size());
    }

    @Test void aSizeBetweenTheStepsIsRefused() throws Exception {
        Forecast f = Forecast.of(mlp(), null);
        assertEquals(1, f.period());
        assertThrows(NotASeries.class, () -> f.at(0));
    }

    @Test void atALoadedSizeTheForecastIsThatCompilationsOwnFigures() throws Exception {
        // the layout of byte-sharing groups gives back the template's own occupancy, step by step
        Forecast f = Forecast.of(mlp(), null);
        for (int k = 0; k < BATCHES.length; k++) {
            HloModule m = f.modules().get(k);
            Prediction p = f.at(BATCHES[k]);
            assertEquals(m, p.template());
            assertEquals(peak(m), p.peakBytes(), m.handle());
            assertEquals(ProgramSizes.of(m).needsBytes(), p.needsBytes(), m.handle());
            assertEquals(Arrays.toString(Liveness.of(m).occupiedBytesByStep(OptionalInt.empty())),
                    Arrays.toString(Liveness.of(p.module()).occupiedBytesByStep(OptionalInt.empty())));
        }
    }

    @Test void theSeriesIsTheProgramLoadedAtSeveralSizesAndTheOthersAreHeldBeforeIt() throws Exception {
        List<HloModule> loaded = new ArrayList<>(DumpLoader.load(List.of(Corpus.require("jax-0.10.2/multi-module-dir-analysis-off"))));
        List<HloModule> series = mlp().subList(0, 3);
        loaded.addAll(series);
        // the first module is current: a program loaded once; two programs are loaded twice (jit__normal, jit_step)
        NotASeries e = assertThrows(NotASeries.class, () -> Forecast.split(loaded, loaded.get(0)));
        assertTrue(e.getMessage().contains("several programs are loaded at several sizes"), e.getMessage());
        Forecast.Loaded split = Forecast.split(loaded, series.get(0));
        assertEquals(series, split.series());
        assertEquals(9, split.others().size());
        List<Program> others = split.others().stream().map(Program::of).toList();
        Forecast f = Forecast.of(split.series(), null);
        long held = 0;
        for (Program p : others) held += p.sizes().heldBytes();
        Capacity c = new Capacity(22L << 20, 0, "test");
        List<Largest> l = f.largest(c, others, Keep.ALL);
        assertTrue(l.get(2).largest() < l.get(0).largest(), "held arrays leave less room: " + l);
        Prediction at = f.at(l.get(0).largest());
        // every array the others keep is held before it, each once: an array a later program takes (its
        // argument, matched by shape and size) is not counted again, nor are the forecast program's own arguments
        Fit.Step step = f.fitAt(at, others, Keep.ALL, c);
        assertTrue(step.heldBeforeBytes() > 0 && step.heldBeforeBytes() <= held, step.heldBeforeBytes() + " of " + held);
        long reads = step.reads().stream().mapToLong(bufq.analysis.fit.HeldArray::bytes).sum();
        List<Program> all = new ArrayList<>(others);
        all.add(Program.of(at.module()));
        List<Fit.Kept> kept = Fit.kept(Fit.steps(all, c, Keep.ALL), Keep.ALL);
        long keptBefore = kept.stream().filter(k -> k.heldFrom() <= step.order() && k.heldUntil() >= step.order())
                .mapToLong(k -> k.array().bytes()).sum();
        assertEquals(keptBefore - reads, step.heldBeforeBytes());
        assertEquals(at.needsBytes() + step.heldBeforeBytes(), step.totalBytes());
        NotASeries single = assertThrows(NotASeries.class, () -> Forecast.split(loaded.subList(0, 1), null));
        assertTrue(single.getMessage().contains("no program is loaded at two sizes"), single.getMessage());
    }
}
