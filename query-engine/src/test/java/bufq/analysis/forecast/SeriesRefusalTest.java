package bufq.analysis.forecast;

import bufq.model.HloModule;
import bufq.table.Table;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hand-made series: a program of an input {@code x f32[B,4]}, a second input {@code z f32[S]} and a
 * temp {@code y f32[D,4]}, built at several sizes, so each refusal has its one cause.
 */
class SeriesRefusalTest {
    /** The program at batch {@code b}, with {@code z} of {@code s} and the temp's first dimension {@code d}. */
    private static HloModule program(long b, long s, long d) {
        long xb = b * 16, zb = s * 4, yb = d * 16;
        return new TestModules.Builder("jit_step").steps("x", "z", "y")
                .alloc(0, xb, 0, "parameter").alloc(1, zb, 0, "parameter").alloc(2, yb, 0, "preallocated-temp")
                .value("x", 0, 0, xb, "f32[" + b + ",4]{1,0}", "0-2")
                .value("z", 1, 0, zb, "f32[" + s + "]{0}", "1-2")
                .value("y", 2, 0, yb, "f32[" + d + ",4]{1,0}", "2-2")
                .instruction("x", "f32[" + b + ",4]{1,0}", "parameter", "x", null, -1)
                .instruction("z", "f32[" + s + "]{0}", "parameter", "z", null, -1)
                .instruction("y", "f32[" + d + ",4]{1,0}", "fusion", "jit(step)/mul", null, -1)
                .build();
    }

    @Test void aSeriesForecastsExactly() throws Exception {
        Forecast f = Forecast.of(List.of(program(8, 3, 8), program(16, 3, 16), program(32, 3, 32)), null);
        assertEquals("x[0]", f.dimension());
        Prediction p = f.at(64);
        assertEquals(64 * 16 + 12 + 64 * 16, p.peakBytes());
        assertEquals(program(64, 3, 64).allocations().stream().mapToLong(a -> a.size()).sum(), p.needsBytes());
    }

    @Test void aShapeOffItsLawIsRefusedNamingTheValue() {
        NotASeries e = assertThrows(NotASeries.class,
                () -> Forecast.of(List.of(program(8, 3, 8), program(16, 3, 16), program(32, 3, 40)), null));
        assertTrue(e.getMessage().contains("1 value do not follow the size"), e.getMessage());
        Table t = e.details();
        assertNotNull(t);
        assertEquals("y", t.cell(0, 0));
        assertTrue(((String) t.cell(0, 2)).contains("no affine function"), (String) t.cell(0, 2));
    }

    @Test void twoSizesVaryingIndependentlyAreRefused() {
        NotASeries e = assertThrows(NotASeries.class,
                () -> Forecast.of(List.of(program(8, 1, 8), program(16, 3, 16), program(32, 4, 32)), null));
        assertTrue(e.getMessage().contains("two sizes vary independently: x[0]"), e.getMessage());
    }

    @Test void aHalfBatchStepsByTwo() throws Exception {
        Forecast f = Forecast.of(List.of(program(8, 3, 4), program(16, 3, 8)), null);
        assertEquals(2, f.period());
        NotASeries e = assertThrows(NotASeries.class, () -> f.at(7));
        assertTrue(e.getMessage().contains("take N = 2 + k·2"), e.getMessage());
        assertEquals(12 * 16 + 12 + 6 * 16, f.at(12).peakBytes());
    }

    @Test void sizesLoadedOutOfOrderAreSortedAndTheSameSizeTwiceIsRefused() throws Exception {
        Forecast f = Forecast.of(List.of(program(32, 3, 32), program(8, 3, 8)), null);
        assertEquals(8, f.sizes()[0]);
        NotASeries e = assertThrows(NotASeries.class, () -> Forecast.of(List.of(program(8, 3, 8), program(8, 3, 8)), "x"));
        assertTrue(e.getMessage().contains("no entry parameter dimension 'x' varies"), e.getMessage());
    }

    @Test void aSizePastTheReadersBoundIsRefusedAsSuch() throws Exception {
        Forecast f = Forecast.of(List.of(program(8, 3, 8), program(16, 3, 16)), null);
        NotASeries e = assertThrows(NotASeries.class, () -> f.at(1L << 55));
        assertTrue(e.getMessage().contains("2^56 bytes"), e.getMessage());
        assertEquals((1L << 52) * 32 + 12, f.at(1L << 52).peakBytes());
    }
}
