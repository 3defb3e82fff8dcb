package bufq.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.HloModule;
import bufq.model.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The per-module memo of the analyses returns what a fresh computation returns. */
class MemoTest {
    static Shape f32(long n) {
        return new Shape("f32[" + n + "]", "f32", new long[] {n}, false, null, List.of(), 0, 0, List.of());
    }

    /** Values of colours 0..2, some tuple elements (printed index), ranges partly outside the schedule. */
    static HloModule random(long seed, int n, int steps, long sizeScale) {
        Random r = new Random(seed);
        List<HloValue> values = new ArrayList<>();
        List<HloInstruction> ins = new ArrayList<>();
        List<String> seq = new ArrayList<>();
        for (int t = 0; t < steps; t++) {
            seq.add("op." + t);
            ins.add(new HloInstruction("op." + t, t, f32(1 + r.nextInt(64)), "fusion", List.of(), null, null, -1, ""));
        }
        for (int i = 0; i < n; i++) {
            int a = r.nextInt(steps + 6) - 3, b = a + r.nextInt(steps / 3 + 1) - (r.nextInt(15) == 0 ? 5 : 0);
            LiveRange range = r.nextInt(20) == 0 ? null : new LiveRange(a, b);
            String name = r.nextInt(3) == 0 ? "op." + r.nextInt(steps) : "v" + i;
            boolean printed = r.nextBoolean();
            values.add(new HloValue(i, name, printed ? "{" + r.nextInt(3) + "}" : "{}", printed, false, r.nextInt(3),
                    (1 + r.nextInt(1000)) * sizeScale, 0, 0, f32((1 + r.nextInt(1000)) * sizeScale), List.of(), List.of(), range));
        }
        List<BufferAllocation> allocs = List.of(new BufferAllocation(0, 1, 0, -1, null, null, null, false, false, false, true,
                null, true, List.of()));
        HloModule.Info info = new HloModule.Info("m" + seed, "m", 0, "tpu", List.of(), steps - 1, null, null, -1, null,
                new TreeMap<>(), true, null);
        return new HloModule(info, allocs, values, ins, seq, List.of());
    }

    @Test
    void cachedProfilesEqualFreshOnes() {
        for (long seed = 1; seed <= 5; seed++) {
            HloModule m = random(seed, 400, 50, 1);
            List<OptionalInt> colors = List.of(OptionalInt.empty(), OptionalInt.of(0), OptionalInt.of(1), OptionalInt.of(2));
            for (OptionalInt c : colors) {
                LiveProfile fresh = LiveProfile.compute(m, c), cached = LiveProfile.of(m, c);
                assertArrayEquals(fresh.logical(), cached.logical());
                assertArrayEquals(fresh.assigned(), cached.assigned());
                assertEquals(LiveProfile.firstMax(fresh.logical()), cached.peakTime());
                assertEquals(LiveProfile.firstMax(fresh.assigned()), cached.assignedPeakTime());
                assertSame(cached, LiveProfile.of(m, c));
                // Against a direct count per step.
                for (int t = 0; t < m.steps(); t++) {
                    long want = 0;
                    for (HloValue v : m.values()) {
                        if (v.range() == null || (c.isPresent() && v.color() != c.getAsInt())) continue;
                        int s = Math.max(0, Math.min(v.range().start(), m.steps() - 1));
                        int e = Math.max(0, Math.min(v.range().end(), m.steps() - 1));
                        if (s <= t && t <= e && s <= e) want += v.logicalSize();
                    }
                    assertEquals(want, cached.logicalAt(t), "step " + t);
                }
            }
            assertEquals(LiveProfile.computeXlaPeakMoment(m), LiveProfile.xlaPeakMoment(m));
            assertEquals(LiveProfile.computeXlaPeakMoment(m), LiveProfile.xlaPeakMoment(m));
        }
    }

    @Test
    void overflowStillFails() {
        HloModule big = random(3, 50, 10, Long.MAX_VALUE / 8000);
        assertThrows(ArithmeticException.class, () -> LiveProfile.of(big, OptionalInt.empty()));
        assertThrows(ArithmeticException.class, () -> LiveProfile.of(big, OptionalInt.empty()));   // not cached
        Shape huge = new Shape("f32[4611686018427387904,4]", "f32", new long[] {1L << 62, 4}, false, null, List.of(), 0, 0, List.of());
        assertThrows(ArithmeticException.class, huge::logicalBytes);
        assertEquals(true, huge.isArray());
    }

    @Test
    void cachedShapeSizesEqualTheRule() {
        assertEquals(4096, f32(1024).logicalBytes());
        assertEquals(16, new Shape("(f32[2], f32[2])", "tuple", new long[0], false, null, List.of(), 0, 0,
                List.of(f32(2), f32(2))).logicalBytes());
        assertEquals(0, new Shape("token[]", "token", new long[0], false, null, List.of(), 0, 0, List.of()).logicalBytes());
        assertEquals(3, new Shape("s4[5]{0:E(4)}", "s4", new long[] {5}, false, new int[] {0}, List.of(), 4, 0, List.of()).logicalBytes());
        assertEquals(5, new Shape("s4[5]", "s4", new long[] {5}, false, null, List.of(), 0, 0, List.of()).logicalBytes());
    }

    @Test
    void labelOrderWithoutBuildingLabels() {
        Random r = new Random(11);
        String[] names = {"a", "ab", "a.1", "a.10", "a.1{", "fusion", "fusion.1", "fusion.12", "b", ""};
        String[] idx = {"{}", "{0}", "{1}", "{0,1}", "{10}"};
        for (int i = 0; i < 3000; i++) {
            HloValue x = value(names[r.nextInt(names.length)], idx[r.nextInt(idx.length)], r.nextBoolean());
            HloValue y = value(names[r.nextInt(names.length)], idx[r.nextInt(idx.length)], r.nextBoolean());
            assertEquals(Integer.signum(x.label().compareTo(y.label())), Integer.signum(PeakReport.compareLabels(x, y)),
                    x.label() + " vs " + y.label());
        }
    }

    private static HloValue value(String name, String index, boolean printed) {
        return new HloValue(0, name, index, printed, false, 0, 4, 0, 0, f32(1), List.of(), List.of(), new LiveRange(0, 1));
    }
}
