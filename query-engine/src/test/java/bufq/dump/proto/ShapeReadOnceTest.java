package bufq.dump.proto;

import bufq.model.HloModule;
import bufq.model.HloValue;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A shape message is read once per module and its bytes (the reader keeps what it read by them):
 * instructions of the same shape bytes share one shape, and a shape of other bytes, however close
 * (a dimension more, one of another size, the same dimensions in a tuple), is its own.
 */
class ShapeReadOnceTest {
    @Test
    void equalShapeBytesShareAShapeAndOthersDoNot() throws ProtoException {
        ProtoGen g = new ProtoGen();
        byte[][] shapes = {ProtoGen.array(4, 8), ProtoGen.array(4, 8), ProtoGen.array(4, 9), ProtoGen.array(4, 8, 1),
                ProtoGen.tuple(ProtoGen.array(4, 8)), ProtoGen.tuple(ProtoGen.array(4, 8)), ProtoGen.array(4)};
        for (int k = 0; k < shapes.length; k++) g.buffer(g.parameter("p" + k, shapes[k], k), 128);
        HloModule m = DataflowScaleTest.load(g.bytes());
        Map<String, HloValue> byName = new HashMap<>();
        for (HloValue v : m.values()) byName.put(v.name(), v);
        assertEquals("f32[4,8]", byName.get("p0").shape().text().replaceAll("\\{.*", ""));
        assertSame(byName.get("p0").shape(), byName.get("p1").shape());
        assertEquals("f32[4,9]", byName.get("p2").shape().text().replaceAll("\\{.*", ""));
        assertEquals("f32[4,8,1]", byName.get("p3").shape().text().replaceAll("\\{.*", ""));
        assertNotSame(byName.get("p0").shape(), byName.get("p3").shape());
        assertEquals("f32[4]", byName.get("p6").shape().text().replaceAll("\\{.*", ""));
        assertEquals(7, m.values().size());
    }
}
