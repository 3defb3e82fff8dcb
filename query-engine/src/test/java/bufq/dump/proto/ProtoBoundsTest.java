package bufq.dump.proto;

import bufq.model.HloModule;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the proto reader bounds where it reads it: nesting of unknown groups, the length of
 * a shape's lists, sizes and their sums. Each is refused with the byte offset and the message path,
 * never a stack overflow, an out-of-memory or a {@code long overflow} later in an analysis.
 */
class ProtoBoundsTest {
    private static HloModule load(byte[] bytes) throws ProtoException {
        return DataflowScaleTest.load(bytes);
    }

    private static ProtoGen small() {
        ProtoGen g = new ProtoGen();
        long p = g.parameter("p", ProtoGen.array(4), 0);
        g.buffer(p, 16);
        return g;
    }

    @Test
    void deeplyNestedGroupsInAnUnknownFieldAreRefusedWithTheirPlace() {
        byte[] bytes = small().moduleExtra(ProtoGen.nestedGroups(99, 60_000)).bytes();
        ProtoException e = assertThrows(ProtoException.class, () -> load(bytes));
        assertEquals("groups nested deeper than 64 in unknown field 99", e.reason());
        assertEquals("HloProto.hlo_module", e.path());
        assertTrue(e.offset() > 0);
    }

    @Test
    void shallowGroupsInAnUnknownFieldAreSkipped() throws ProtoException {
        HloModule m = load(small().moduleExtra(ProtoGen.nestedGroups(99, 40)).bytes());
        assertEquals(1, m.values().size());
    }

    @Test
    void aShapeWithMoreDimensionsThanAnyRealOneIsRefused() {
        long[] dims = new long[Wire.MAX_ENTRIES + 1];
        java.util.Arrays.fill(dims, 1);
        ProtoGen g = new ProtoGen();
        long p = g.parameter("p", ProtoGen.array(dims), 0);
        g.buffer(p, 4);
        ProtoException e = assertThrows(ProtoException.class, () -> load(g.bytes()));
        assertEquals("dimensions has more than 1024 entries; not a real shape", e.reason());
        assertTrue(e.path().endsWith("instructions[0].shape"), e.path());
    }

    @Test
    void aSizeNearTwoToTheSixtyThirdIsRefusedWhereItIsRead() {
        ProtoGen g = new ProtoGen();
        long p = g.parameter("p", ProtoGen.array(4), 0);
        g.buffer(p, Long.MAX_VALUE);
        ProtoException e = assertThrows(ProtoException.class, () -> load(g.bytes()));
        assertEquals("size 9223372036854775807 is more than 2^56 bytes (64 PiB); not a real size", e.reason());
        assertEquals("HloProto.buffer_assignment.logical_buffers[0]", e.path());
    }

    @Test
    void sizesThatAddUpPastTwoToTheSixtyFirstAreRefused() {
        ProtoGen g = new ProtoGen();
        for (int k = 0; k < 40; k++) g.buffer(g.parameter("p" + k, ProtoGen.array(4), k), 1L << 56);
        ProtoException e = assertThrows(ProtoException.class, () -> load(g.bytes()));
        assertEquals("the logical buffers' sizes add up to more than 2^61 bytes; not a real module", e.reason());
        assertEquals("HloProto.buffer_assignment.logical_buffers[32]", e.path());
    }

    @Test
    void aNegativeSizeIsRefused() {
        ProtoGen g = new ProtoGen();
        g.buffer(g.parameter("p", ProtoGen.array(4), 0), -8);
        ProtoException e = assertThrows(ProtoException.class, () -> load(g.bytes()));
        assertEquals("size -8 is negative", e.reason());
    }
}
