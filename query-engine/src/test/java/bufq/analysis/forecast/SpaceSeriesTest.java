package bufq.analysis.forecast;


import bufq.dump.DumpLoader;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real XLA:TPU size series, which no strict pairing accepts (VMEM prefetches, sync flags and
 * async-copy tuples change in number with the size), forecast per memory space: the HBM peak of the
 * held-back size from the others, to the error measured here.
 */
class SpaceSeriesTest {
    static List<HloModule> load(String... dirs) throws Exception {
        List<HloModule> out = new ArrayList<>();
        for (String d : dirs) {
            HloModule m = DumpLoader.load(List.of(Corpus.require(d))).get(0);
            m.usedValues().read();
            out.add(m);
        }
        return out;
    }

    @Test
    void batch48IsForecastFrom8And16And32() throws Exception {
        List<HloModule> loaded = load("tpu/series-batch/batch-8", "tpu/series-batch/batch-16", "tpu/series-batch/batch-32");
        assertThrows(NotASeries.class, () -> ProgramSeries.of(loaded, null), "no strict series");
        Forecast f = Forecast.of(loaded, null);
        assertEquals("batch['labels'][0]", f.dimension());   // per chip: 2, 4, 8 of global 8, 16, 32
        assertNotNull(f.series().unpaired());
        long actual = Liveness.of(load("tpu/series-batch/batch-48").get(0)).peakBytes();
        long forecast = f.at(12).peakBytes();
        // measured: 10 850 308 608 forecast against 10 850 341 376 compiled (-32 KiB)
        assertTrue(Math.abs(forecast - actual) <= actual / 1000, forecast + " vs " + actual);
    }

    @Test
    void seq4096IsForecastFrom512And1024And2048() throws Exception {
        List<HloModule> loaded = load("tpu/series-seq/seq-512", "tpu/series-seq/seq-1024", "tpu/series-seq/seq-2048");
        Forecast f = Forecast.of(loaded, null);
        assertEquals("batch['labels'][1]", f.dimension());   // the sequence length, which the activations' dimensions are
        long actual = Liveness.of(load("tpu/series-seq/seq-4096").get(0)).peakBytes();
        long forecast = f.at(4096).peakBytes();
        // measured: 6 668 871 680 forecast against 6 758 934 528 compiled (-1.3%)
        assertTrue(Math.abs(forecast - actual) <= actual / 50, forecast + " vs " + actual);
    }
}
