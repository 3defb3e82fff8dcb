package bufq.analysis.forecast;

import bufq.model.Shape;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Laws fitted on hand-made shapes, and what {@code forecast} parses. */
class LawTest {
    private static Law fit(long[] ns, Shape... shapes) {
        long[] sizes = new long[shapes.length];
        for (int k = 0; k < shapes.length; k++) sizes[k] = shapes[k].paddedBytes();
        return Law.fit(shapes, sizes, ns, new String[1]);
    }

    @Test void anAttentionMatrixIsQuadraticAndExact() {
        Law l = fit(new long[] {128, 256}, TestModules.plain("f32", 4, 8, 128, 128), TestModules.plain("f32", 4, 8, 256, 256));
        assertEquals("f32[4,8,N,N]", l.shapeText("N"));
        assertEquals("128·N²", l.bytesText("N"));
        assertEquals(4L * 8 * 512 * 512 * 4, l.bytesAt(512));
        assertArrayEquals(new double[] {0, 0, 128}, l.coefficients());
    }

    @Test void aHalfSizeDimensionIsWholeOnlyEveryOtherSize() {
        Law l = fit(new long[] {8, 16}, TestModules.plain("f32", 4, 1024), TestModules.plain("f32", 8, 1024));
        assertEquals("f32[N/2,1024]", l.shapeText("N"));
        assertEquals(2, l.period());
        assertEquals(-1, l.bytesAt(7));
        assertEquals(12L * 1024 * 4, l.bytesAt(24));
        assertEquals("2048·N", l.bytesText("N"));
    }

    /**
     * XLA's partial reductions hold ceil(B/32) rows: at 48, 80 and 112 that is 2, 3, 4, which the
     * affine law (N+16)/32 also fits, whole only at 16 + k·32, refusing 96. The ceiling is whole at
     * every size and gives what a compile at 96 holds.
     */
    @Test void aPartialReductionRoundsUpAndIsWholeAtEverySize() {
        Law l = fit(new long[] {48, 80, 112}, TestModules.plain("f32", 2, 1024), TestModules.plain("f32", 3, 1024),
                TestModules.plain("f32", 4, 1024));
        assertEquals("f32[ceil(N/32),1024]", l.shapeText("N"));
        assertEquals(1, l.period());
        assertEquals(3L * 1024 * 4, l.bytesAt(96));
        assertEquals(7L * 1024 * 4, l.bytesAt(224));
        assertEquals(14L * 1024 * 4, l.bytesAt(448));
        assertEquals(6L * 1024 * 4, l.bytesAt(179));
        assertEquals("bytes of f32[ceil(N/32),1024]", l.bytesText("N"));
    }

    @Test void aDimensionOffTheLineIsRefusedWithTheReason() {
        String[] why = new String[1];
        Shape[] s = {TestModules.plain("f32", 8), TestModules.plain("f32", 16), TestModules.plain("f32", 40)};
        assertNull(Law.fit(s, new long[] {32, 64, 160}, new long[] {8, 16, 32}, why));
        assertTrue(why[0].contains("no affine function"), why[0]);
    }
}
