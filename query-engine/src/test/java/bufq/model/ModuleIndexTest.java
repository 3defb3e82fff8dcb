package bufq.model;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.util.LongList;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The lean indexes of {@link HloModule} answer like plain maps would. */
class ModuleIndexTest {
    static final Shape F32 = new Shape("f32[4]{0}", "f32", new long[] {4}, false, new int[] {0}, List.of(), 0, 0, List.of());

    static HloValue value(long id, String name, String index, int alloc, LiveRange r) {
        return new HloValue(id, name, index, !"{}".equals(index) || name.startsWith("t"), false, 0, 16, 0, alloc, F32,
                List.of(), List.of(), r);
    }

    static HloModule module() {
        List<HloValue> values = List.of(
                value(9, "t.1", "{}", 0, new LiveRange(0, 3)),
                value(3, "t.1", "{0}", 0, new LiveRange(1, 2)),
                value(5, "x", "{}", 1, null),
                value(7, "t.1", "{1}", 0, new LiveRange(2, 3)));
        List<BufferAllocation> allocs = List.of(
                new BufferAllocation(0, 64, 0, -1, null, null, null, false, false, false, true, null, true,
                        LongList.of(new long[] {9, 3, 7})),
                new BufferAllocation(1, 16, 0, 0, F32, "{}", null, false, false, false, false, null, true, List.of(5L)));
        List<HloInstruction> ins = List.of(
                new HloInstruction("x", 0, F32, "parameter", List.of(), null, null, -1, ""),
                new HloInstruction("t.1", 1, F32, "tuple", List.of("x", "x"), null, null, -1, ""),
                new HloInstruction("y", 2, F32, "negate", List.of("x"), null, null, -1, ""));
        HloModule.Info info = new HloModule.Info("m", "m", 0, "cpu", List.of("f"), 3, 80L, null, -1, null, new TreeMap<>(), true, null);
        return new HloModuleBuilder(info).allocations(allocs).values(values).instructions(ins)
                .sequence(List.of("x", "t.1", "y")).build();
    }

    @Test
    void lookupsById() {
        HloModule m = module();
        assertEquals("x", m.value(5).name());
        assertEquals("{0}", m.value(3).index());
        assertNull(m.value(4));
        assertNull(m.value(100));
    }

    /**
     * Shared ids are found without the id index when there are none (a bit per id), and named by it
     * when there are: random ids, small, huge and negative, against groups made here.
     */
    @Test
    void valuesSharingAnIdAgainstAPlainGrouping() {
        java.util.Random r = new java.util.Random(5);
        for (int round = 0; round < 400; round++) {
            int n = 1 + r.nextInt(30);
            int kind = r.nextInt(4);
            List<HloValue> values = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                long id = switch (kind) {
                    case 0 -> i;                                     // distinct, as XLA numbers them
                    case 1 -> r.nextInt(2 * n);                      // some repeat
                    case 2 -> r.nextBoolean() ? -r.nextInt(4) : r.nextInt(n);
                    default -> (long) r.nextInt(3) * 1_000_000_007L; // far apart
                };
                values.add(value(id, "v" + i, "{}", 0, null));
            }
            java.util.Collections.shuffle(values, r);
            TreeMap<Long, List<HloValue>> byId = new TreeMap<>();
            for (HloValue v : values) byId.computeIfAbsent(v.id(), k -> new java.util.ArrayList<>()).add(v);
            List<List<HloValue>> want = byId.values().stream().filter(g -> g.size() > 1).toList();
            HloModule.Info info = new HloModule.Info("m", "m", 0, "cpu", List.of("f"), 3, null, null, -1, null, new TreeMap<>(), true, null);
            HloModule m = new HloModuleBuilder(info).values(values).build();
            assertEquals(want, m.valuesSharingAnId(), "round " + round);
            for (List<HloValue> g : byId.values()) assertSame(g.get(0), m.value(g.get(0).id()), "the first of equal ids");
        }
    }

    @Test
    void lookupsByNameAndKey() {
        HloModule m = module();
        assertEquals(3, m.valuesNamed("t.1").size());
        assertEquals(1, m.valuesNamed("x").size());
        assertEquals(List.of(), m.valuesNamed("nope"));
        assertEquals(7, m.valueByKey("t.1{1}").id());
        assertEquals(9, m.valueByKey("t.1{}").id());
        assertEquals(5, m.valueByKey("x{}").id());
        assertEquals(5, m.valueByKey("x").id());
        assertNull(m.valueByKey("t.1{2}"));
        assertSame(m.value(9), m.valueByKey("t.1{}"));
    }

    @Test
    void usersAndAllocations() {
        HloModule m = module();
        assertEquals(List.of("t.1", "t.1", "y"), m.users("x"));
        assertEquals(List.of(), m.users("y"));
        assertEquals(3, m.valuesIn(0).size());
        assertEquals(List.of(9L, 3L, 7L), m.allocation(0).valueIds());
        assertEquals(3, LiveValues.at(m, 2).size());
        assertEquals(48L, Liveness.of(m).liveBytes(2));
    }

    @Test
    void longListIsAnImmutableListOfLongs() {
        LongList l = LongList.of(new long[] {1, 2, 3});
        assertEquals(List.of(1L, 2L, 3L), l);
        assertEquals(List.of(1L, 2L, 3L).hashCode(), l.hashCode());
        assertEquals(true, l.contains(2L));
        assertThrows(UnsupportedOperationException.class, () -> l.add(4L));
    }
}
