package bufq.dump.text;

import bufq.dump.text.ShapeParser.ShapeSyntaxException;

import bufq.model.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShapeParserTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
            // text; logical bytes; padded bytes
            "f32[16,64]{1,0:T(8,128)}; 4096; 8192",
            "u32[4,2]{0,1:T(2,128)}; 32; 1024",
            "u32[]{:T(128)}; 4; 512",
            "f32[64,32]{0,1:T(8,128)}; 8192; 16384",
            "s32[]{:T(128)S(6)}; 4; 512",
            "f32[1,5]{1,0:T(1,128)}; 20; 512",
            "bf16[3,5,7]{2,1,0:T(8,128)(2,1)}; 210; 6144",
            "f32[16,32]{1,0:T(8,128)S(1)}; 2048; 8192",
            "u32[]{:S(2)}; 4; 4",
            "f32[8]; 32; 32",
            "pred[9,26]{1,0}; 234; 234",
            "c128[13]{0}; 208; 208",
            "s4[16]{0:E(4)}; 8; 8",
            "s4[16]{0}; 16; 16",
            "s4[8,128]{1,0:T(8,128)(4,1)E(4)}; 512; 512",
            "f32[<=8,4]{1,0}; 128; 128",
            "token[]; 0; 0",
            "(f32[2]{0}, u32[]); 16; 16",
            "f32[8]{0:T(128)L(2)#(1)*(3)SC(1)M(2)}; 32; 512",
    })
    void sizes(String text, long logical, long padded) {
        Shape s = ShapeParser.parse(text);
        assertEquals(text, s.text());
        assertEquals(logical, s.logicalBytes(), "logical");
        assertEquals(padded, s.paddedBytes(), "padded");
    }

    @Test
    void partsOfATiledShape() {
        Shape s = ShapeParser.parse("f32[16,64]{1,0:T(8,128)(2,1)E(32)S(1)}");
        assertEquals("f32", s.dtype());
        assertArrayEquals(new long[] {16, 64}, s.dims());
        assertArrayEquals(new int[] {1, 0}, s.minorToMajor());
        assertEquals(2, s.tiles().size());
        assertArrayEquals(new long[] {8, 128}, s.tiles().get(0));
        assertEquals(32, s.elementSizeBits());
        assertEquals(1, s.memorySpace());
        assertEquals("1,0:T(8,128)(2,1)E(32)S(1)", s.layoutText());
    }

    @Test
    void dynamicDims() {
        Shape s = ShapeParser.parse("f32[<=8,?]{1,0}");
        assertTrue(s.dynamic());
        assertArrayEquals(new long[] {8, 0}, s.dims());
        assertFalse(ShapeParser.parse("f32[8]").dynamic());
        assertNull(ShapeParser.parse("f32[8]").minorToMajor());
    }

    @Test
    void tuplesNestAndSkipIndexComments() {
        Shape t = ShapeParser.parse("(s32[], u32[2]{0}, (f32[], pred[]), u32[], u32[], /*index=5*/u32[], u32[4]{0})");
        assertTrue(t.isTuple());
        assertEquals(7, t.tupleElements().size());
        assertEquals("u32[]", t.tupleElements().get(5).text());
        assertTrue(t.tupleElements().get(2).isTuple());
        assertEquals(56, t.logicalBytes());
        assertEquals(0, ShapeParser.parse("()").tupleElements().size());
    }

    @Test
    void internsEqualTexts() {
        Map<String, Shape> cache = new ConcurrentHashMap<>();
        ShapeParser p = new ShapeParser(cache);
        Shape a = p.shape("f32[8]{0}");
        assertSame(a, p.shape("f32[8]{0}"));
        Shape t = p.shape("(f32[8]{0}, f32[8]{0})");
        assertSame(a, t.tupleElements().get(0));
        assertSame(a, t.tupleElements().get(1));
    }

    @Test
    void oddTextRaisesShapeSyntaxException() {
        for (String bad : new String[] {"", "f32", "f32[8", "f32[8]{0", "q17[8]", "f32[8]{0:Z}", "(f32[8]", "f32[8] extra",
                "f32[99999999999999999999]"}) {
            ShapeSyntaxException e = assertThrows(ShapeSyntaxException.class, () -> ShapeParser.parse(bad), bad);
            assertTrue(e.getMessage().contains("shape"), e.getMessage());
        }
    }
}
