package bufq.shell.script;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloModuleBuilder;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.Shape;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** A module with a million values reaches a script without being converted: rows are made when read. */
class LazyRowsTest {
    static HloModule million() {
        int n = 1_000_000;
        Shape s = Doctored.f32(16);
        List<HloValue> values = new ArrayList<>(n);
        List<Long> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(new HloValue(i, "v." + i, "{}", false, false, 0, 64, 64L * (i % 1000), 0, s, List.of(), List.of(),
                    new LiveRange(i % 100, i % 100 + 1)));
            ids.add((long) i);
        }
        List<BufferAllocation> allocs = List.of(new BufferAllocation(0, 64_000, 0, -1, null, null, null, false, false, false,
                false, null, true, ids));
        List<String> seq = new ArrayList<>();
        List<HloInstruction> ins = new ArrayList<>();
        for (int t = 0; t <= 100; t++) {
            seq.add("i" + t);
            ins.add(HloInstruction.sequenced("i" + t, t));
        }
        HloModule.Info info = new HloModule.Info("big", "big", 0, "cpu", List.of("big-buffer-assignment.txt"), 100, null, null, -1,
                null, new TreeMap<>(), true, null);
        return new HloModuleBuilder(info).allocations(allocs).values(values).instructions(ins).sequence(seq).build();
    }

    @Test
    void aMillionValuesAreReadCorrectlyThroughTheLazyArray() throws Exception {
        try (Harness h = new Harness()) {
            h.shell.modules().addModules(List.of(million()));
            assertEquals("1000000\n", h.ok("js bufq.module.values.length"));
            assertEquals("v.999999 64\n", h.ok("js const last = bufq.module.values[999999]; print(last.label, last.size)"));
            assertEquals("v.500000\n", h.ok("js bufq.module.value(500000).name"));
            String e = h.fails("js bufq.module.values[1000000].id");
            assertTrue(e.contains("index 1000000 outside 0..999999") || e.contains("undefined"), e);
        }
    }

    /** What a script sees of an entity is converted element by element when read, never up front. */
    @Test
    void theArrayConvertsOnlyWhatIsRead() {
        AtomicInteger made = new AtomicInteger();
        Convert.ReadOnlyArray a = new Convert.ReadOnlyArray(1_000_000, i -> "row " + i + " #" + made.incrementAndGet());
        assertEquals(1_000_000, a.getSize());
        assertEquals(0, made.get(), "nothing converted for the length");
        assertEquals("row 999999 #1", a.get(999_999));
        assertEquals("row 5 #2", a.get(5));
        assertEquals(2, made.get());
    }
}
