package bufq.model;

import bufq.analysis.liveness.LiveValues;
import bufq.dump.text.ShapeParser;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HloValue and HloInstruction store common cases compactly; what they answer must not change. */
class CompactModelTest {
    static final Shape F32 = ShapeParser.parse("f32[8]{0}");

    static HloValue value(String name, String index, List<HloPosition> positions, List<HloUse> uses, LiveRange r) {
        return new HloValue(3, name, index, !"{}".equals(index), false, 1, 32, 64, 2, F32, positions, uses, r);
    }

    @Test
    void positionsUsesAndRangeReadBackAsGiven() {
        List<List<HloPosition>> positionCases = List.of(List.of(), List.of(new HloPosition("a.1", "{}")),
                List.of(new HloPosition("b.2", "{}")), List.of(new HloPosition("a.1", "{0}")),
                List.of(new HloPosition("a.1", "{}"), new HloPosition("t.3", "{1}")));
        List<List<HloUse>> useCases = List.of(List.of(), List.of(new HloUse("n.4", 0, "{}")),
                List.of(new HloUse("n.4", 0, "{}"), new HloUse("m.5", 1, "{0}")));
        for (List<HloPosition> ps : positionCases) {
            for (List<HloUse> us : useCases) {
                for (LiveRange r : new LiveRange[] {null, new LiveRange(0, 0), new LiveRange(4, 9)}) {
                    HloValue v = value("a.1", "{}", ps, us, r);
                    assertEquals(ps, v.positions());
                    assertEquals(us, v.uses());
                    assertEquals(r, v.range());
                    assertEquals(r != null, v.hasRange());
                    if (r != null) {
                        assertEquals(r.start(), v.rangeStart());
                        assertEquals(r.end(), v.rangeEnd());
                        assertTrue(v.liveAt(r.end()));
                        assertFalse(v.liveAt(r.end() + 1));
                    } else {
                        assertFalse(v.liveAt(0));
                    }
                    assertEquals(v, value("a.1", "{}", ps, us, r));
                    assertEquals(v.hashCode(), value("a.1", "{}", ps, us, r).hashCode());
                    assertEquals(v, v.withRange(r));
                }
            }
        }
        HloValue a = value("a.1", "{}", List.of(), List.of(), null);
        assertNotEquals(a, a.withRange(new LiveRange(0, -1)));   // a range that is set differs from none
        assertNotEquals(value("a.1", "{}", List.of(new HloPosition("a.1", "{}")), List.of(), null), a);
        assertEquals("a.1{0}", value("a.1", "{0}", List.of(), List.of(), null).label());
        assertEquals(32, a.logicalSize());
    }

    @Test
    void attributesComeBackWholeWithOrWithoutMetadata() {
        for (String attrs : List.of("", "kind=kLoop, calls=%f.1", "metadata={op_name=\"x\"}",
                "kind=kLoop, metadata={op_name=\"x\"}, backend_config={}")) {
            HloInstruction i = new HloInstruction("f.1", -1, F32, "fusion", List.of("p.0"), null, null, -1, attrs);
            assertEquals(attrs, i.attributes());
            assertEquals(attrs, i.withTime(3).attributes());
            assertEquals(3, i.withTime(3).time());
            assertEquals(i, new HloInstruction("f.1", -1, F32, "fusion", List.of("p.0"), null, null, -1, attrs));
        }
        HloInstruction s = HloInstruction.sequenced("y", 4);
        assertEquals("", s.attributes());
        assertNull(s.shape());
        assertEquals(4, s.time());
    }

    @Test
    void withHandleSharesTheIndexes() {
        HloValue x = new HloValue(0, "x", "{}", false, false, 0, 32, 0, 0, F32, List.of(), List.of(), new LiveRange(0, 1));
        HloValue y = new HloValue(1, "y", "{}", false, false, 0, 32, 32, 0, F32, List.of(), List.of(), new LiveRange(1, 1));
        HloModule.Info info = new HloModule.Info("m", "m", -1, "cpu", List.of("f"), 1, 64L, null, -1, null,
                new java.util.TreeMap<>(), false, null);
        BufferAllocation a = new BufferAllocation(0, 64, 0, -1, null, null, null, false, false, false, false, null, true,
                List.of(0L, 1L));
        HloModule m = new HloModuleBuilder(info).allocations(List.of(a)).values(List.of(x, y))
                .instructions(List.of(HloInstruction.sequenced("x", 0))).sequence(List.of("x", "y")).build();
        HloModule h = m.withHandle("other");
        assertEquals("other", h.handle());
        assertSame(m.values(), h.values());
        assertEquals(List.of(x, y), h.valuesIn(0));
        assertEquals(List.of(x, y), LiveValues.at(h, 1));
        assertSame(y, h.value(1));
        assertSame(a, h.allocation(0));
        assertEquals(0, h.timeOf("x"));
    }
}
