package bufq.analysis.liveness;

import java.util.Arrays;
import java.util.TreeSet;
import java.util.Set;
import bufq.model.AllocationGroups;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloModuleBuilder;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.PeakClaim;
import bufq.model.Shape;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The liveness sweep against a brute force written here, on random modules; and its contract. */
class LivenessTest {
    static Shape u8(long n) {
        return new Shape("u8[" + n + "]", "u8", new long[] {n}, false, null, List.of(), 0, 0, List.of());
    }

    /** Values in three allocations and two colours, overlapping bytes, ranges partly outside the schedule. */
    static HloModule random(long seed, int n, int steps) {
        Random r = new Random(seed);
        List<HloValue> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int a = r.nextInt(steps + 4) - 2, b = a + r.nextInt(steps / 3 + 1) - (r.nextInt(15) == 0 ? 3 : 0);
            LiveRange range = r.nextInt(12) == 0 ? null : new LiveRange(a, b);
            int alloc = r.nextInt(3);
            long size = 1 + r.nextInt(40), offset = r.nextInt(9) == 0 ? -1 : r.nextInt(60);
            values.add(new HloValue(i, "v" + i, "{}", false, false, alloc == 2 ? 1 : 0, size, offset, alloc,
                    u8(1 + r.nextInt(50)), List.of(), List.of(), range));
        }
        List<BufferAllocation> allocs = new ArrayList<>();
        for (int a = 0; a < 3; a++) {
            allocs.add(new BufferAllocation(a, 128, a == 2 ? 1 : 0, -1, null, null, null, false, false, false, false, null, true, List.of()));
        }
        HloModule.Info info = new HloModule.Info("r" + seed, "r", 0, "tpu", List.of(), steps - 1, null,
                new PeakClaim(steps / 2, List.of(), true), -1, null, new TreeMap<>(), true, null);
        return new HloModuleBuilder(info).allocations(allocs).values(values).build();
    }

    /**
     * Per step: for each allocation, mark each byte a live value covers; count marks; add sizes without
     * offset. One pass over the values, each marking the bytes of every step it is live at (a pass per
     * step and allocation cost the 120,000-value test seconds of CPU).
     */
    static long[] bruteOccupied(HloModule m, Integer color) {
        long[] out = new long[m.steps()];
        boolean[][][] held = new boolean[out.length][3][200];
        for (HloValue v : m.values()) {
            int a = v.allocation();
            if (a < 0 || a >= 3 || (color != null && v.color() != color)) continue;
            for (int t = 0; t < out.length; t++) {
                if (!v.liveAt(t)) continue;
                if (v.offset() < 0) out[t] += v.size();
                else for (long k = v.offset(); k < v.offset() + v.size(); k++) held[t][a][(int) k] = true;
            }
        }
        for (int t = 0; t < out.length; t++) for (boolean[] alloc : held[t]) for (boolean h : alloc) if (h) out[t]++;
        return out;
    }

    /** The colour figures without one are of: 0 where the module has other colours too (the device memory), else all (null). */
    static Integer device(HloModule m) {
        Set<Integer> cs = new TreeSet<>();
        for (HloValue v : m.values()) cs.add(v.color());
        for (var a : m.allocations()) cs.add(a.color());
        return cs.size() > 1 && cs.contains(0) ? 0 : null;
    }

    static long[] bruteLive(HloModule m, Integer color) {
        long[] out = new long[m.steps()];
        for (int t = 0; t < out.length; t++)
            for (HloValue v : m.values()) if (v.liveAt(t) && (color == null || v.color() == color)) out[t] += v.logicalSize();
        return out;
    }

    static int firstMax(long[] a) {
        int best = -1;
        for (int i = 0; i < a.length; i++) if (best < 0 || a[i] > a[best]) best = i;
        return best;
    }

    /** Values grouped by allocation, from numbers in dump order (runs, no sort) or in any order, against a map. */
    @Test
    void groupsByAllocationAgainstAPlainGrouping() {
        Random r = new Random(3);
        for (int round = 0; round < 300; round++) {
            int n = r.nextInt(40);
            int[] allocation = new int[n];
            for (int i = 0; i < n; i++) allocation[i] = r.nextInt(8) - 2;
            if (round % 2 == 0) java.util.Arrays.sort(allocation);   // as a dump lists them
            TreeMap<Integer, List<Integer>> want = new TreeMap<>();
            for (int i = 0; i < n; i++) want.computeIfAbsent(allocation[i], k -> new ArrayList<>()).add(i);
            AllocationGroups g = AllocationGroups.of(allocation);
            TreeMap<Integer, List<Integer>> got = new TreeMap<>();
            assertEquals(want.size(), g.keys().length);
            for (int k = 0; k < g.keys().length; k++) {
                List<Integer> members = new ArrayList<>();
                for (int j = g.start()[k]; j < g.start()[k + 1]; j++) members.add(g.members()[j]);
                got.put(g.keys()[k], members);
                if (k > 0) assertTrue(g.keys()[k - 1] < g.keys()[k], "keys ascending");
            }
            assertEquals(want, got, "round " + round);
        }
    }

    @Test
    void agreesWithBruteForceOnRandomModules() {
        for (long seed = 1; seed <= 60; seed++) {
            HloModule m = random(seed, 5 + (int) (seed * 7 % 90), 3 + (int) (seed % 40));
            Liveness l = Liveness.of(m);
            String where = "seed " + seed;
            long[] occupied = bruteOccupied(m, device(m));
            assertArrayEquals(occupied, l.occupiedBytesByStep(OptionalInt.empty()), where);
            assertArrayEquals(bruteLive(m, device(m)), l.liveBytesByStep(OptionalInt.empty()), where);
            long[] all = bruteLive(m, null);
            for (int t = 0; t < m.steps(); t++) assertEquals(all[t], l.liveBytesAllSpaces(t), where);
            assertEquals(firstMax(occupied), l.peakTime(), where);
            assertEquals(occupied[l.peakTime()], l.peakBytes(), where);
            assertEquals(m.steps() / 2, l.claimedPeakTime(), where);
            for (int c : List.of(0, 1)) {
                long[] oc = bruteOccupied(m, c);
                assertArrayEquals(oc, l.occupiedBytesByStep(OptionalInt.of(c)), where + " colour " + c);
                assertArrayEquals(bruteLive(m, c), l.liveBytesByStep(OptionalInt.of(c)), where + " colour " + c);
                assertEquals(firstMax(oc), l.peakTime(c), where + " colour " + c);
                for (int t = 0; t < m.steps(); t++) assertEquals(oc[t], l.occupiedBytes(t, c));
            }
            for (int t = 0; t < m.steps(); t++) assertEquals(LiveValues.at(m, t).size(), l.liveValues(t), where + " t " + t);
        }
    }

    /**
     * Allocations that hold one value (most of a big module's) take a shortcut past the general
     * sweep: values without an offset, of size 0, without a live range, inverted or past the last
     * step, in allocations of one and of several values, against brute force and against the
     * general sweep's answer for the same value in an allocation of two (its twin never live).
     */
    @Test
    void allocationsOfOneValueAgreeWithBruteForce() {
        Random r = new Random(21);
        for (int round = 0; round < 200; round++) {
            int steps = 2 + r.nextInt(30), n = 1 + r.nextInt(40), allocs = 1 + r.nextInt(n + 5);
            int[] alloc = new int[n], color = new int[n], start = new int[n], end = new int[n];
            long[] offset = new long[n], size = new long[n], logical = new long[n];
            for (int i = 0; i < n; i++) {
                alloc[i] = r.nextInt(allocs);
                color[i] = alloc[i] % 3 == 0 ? 1 : 0;   // one colour an allocation, as XLA assigns them
                offset[i] = r.nextInt(6) == 0 ? -1 : r.nextInt(50);
                size[i] = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(40);
                logical[i] = size[i];
                int kind = r.nextInt(8);
                start[i] = kind == 0 ? steps + r.nextInt(3) : r.nextInt(steps + 2) - 1;
                end[i] = kind == 1 ? start[i] - 1 - r.nextInt(2) : start[i] + r.nextInt(steps);
            }
            Liveness l = Liveness.compute(steps, new SweepInputs(alloc, color, offset, size, logical, start, end), -1);
            long[] want = new long[steps];
            // without a colour, the device memory's (colour 0) when there are both
            boolean both = Arrays.stream(color).distinct().count() > 1;
            for (int t = 0; t < steps; t++) {
                for (int a = 0; a < allocs; a++) {
                    boolean[] held = new boolean[100];
                    for (int i = 0; i < n; i++) {
                        if (alloc[i] != a || t < start[i] || t > end[i] || both && color[i] != 0) continue;
                        if (offset[i] < 0) want[t] += size[i];
                        else for (long k = offset[i]; k < offset[i] + size[i]; k++) held[(int) k] = true;
                    }
                    for (boolean h : held) if (h) want[t]++;
                }
            }
            assertArrayEquals(want, l.occupiedBytesByStep(OptionalInt.empty()), "round " + round);
            // One value alone, and the same value beside a twin that is never live: the same maximum.
            for (int i = 0; i < n; i++) {
                Liveness one = Liveness.compute(steps, new SweepInputs(new int[] {7}, new int[] {color[i]},
                        new long[] {offset[i]}, new long[] {size[i]}, new long[] {size[i]}, new int[] {start[i]}, new int[] {end[i]}), -1);
                Liveness two = Liveness.compute(steps, new SweepInputs(new int[] {7, 7}, new int[] {color[i], color[i]},
                        new long[] {offset[i], -1}, new long[] {size[i], 0}, new long[] {size[i], 0},
                        new int[] {start[i], steps + 5}, new int[] {end[i], steps + 5}), -1);
                assertEquals(two.allocationUse(7), one.allocationUse(7), "round " + round + " value " + i);
                assertArrayEquals(two.occupiedBytesByStep(OptionalInt.empty()), one.occupiedBytesByStep(OptionalInt.empty()));
            }
        }
    }

    /** Past 100,000 values the allocations are swept on two cores, each half into its own differences. */
    @Test
    void agreesWithBruteForceWhenSweptOnTwoCores() {
        for (long seed = 1; seed <= 2; seed++) {
            HloModule m = random(seed, 120_000, 30);
            Liveness l = Liveness.of(m);
            long[] occupied = bruteOccupied(m, device(m));
            assertArrayEquals(occupied, l.occupiedBytesByStep(OptionalInt.empty()), "seed " + seed);
            assertEquals(firstMax(occupied), l.peakTime());
            for (int c : List.of(0, 1)) assertArrayEquals(bruteOccupied(m, c), l.occupiedBytesByStep(OptionalInt.of(c)), "colour " + c);
        }
    }

    @Test
    void computedOnceAndSharedWithCopiesUnderAnotherHandle() {
        HloModule m = random(3, 40, 12);
        Liveness l = Liveness.of(m);
        assertSame(l, Liveness.of(m));
        assertSame(l, Liveness.of(m.withHandle("other")));
    }

    @Test
    void computeOnEditedInputsMovesThePeak() {
        HloModule m = random(4, 50, 20);
        SweepInputs in = SweepInputs.of(m);
        // One huge value alone in a fresh allocation, live at step 7 only: the peak moves there.
        in.allocation()[0] = 99;
        in.offset()[0] = 0;
        in.size()[0] = 1 << 20;
        in.start()[0] = 7;
        in.end()[0] = 7;
        Liveness w = Liveness.compute(m.steps(), in, -1);
        assertEquals(7, w.peakTime());
        assertEquals(-1, w.claimedPeakTime());
        SweepInputs without = SweepInputs.of(m);
        without.end()[0] = without.start()[0] - 1;
        assertEquals(Liveness.compute(m.steps(), without, -1).occupiedBytes(7) + (1 << 20), w.occupiedBytes(7));
        assertEquals(new Liveness.AllocationUse(1 << 20, 7), w.allocationUse(99));
        assertEquals(Liveness.of(m).occupiedBytes(3), Liveness.compute(m.steps(), SweepInputs.of(m), 9).occupiedBytes(3));
    }

    @Test
    void noLiveRangesMeansNoPeak() {
        HloModule.Info info = new HloModule.Info("bare", "bare", 0, "cpu", List.of(), -1, null, null, -1, null,
                new TreeMap<>(), true, null);
        HloModule m = new HloModuleBuilder(info).values(List.of(new HloValue(1, "a", "{}", false, false, 0, 16, 0, 0, u8(16),
                List.of(), List.of(), null))).build();
        assertEquals(-1, Liveness.of(m).peakTime());
        assertEquals(0, Liveness.of(m).peakBytes());
        assertEquals(0, Liveness.of(m).steps());
        assertEquals(-1, Liveness.of(m).claimedPeakTime());
    }

    @Test
    void overflowFailsEveryTime() {
        List<HloValue> values = new ArrayList<>();
        Shape huge = new Shape("u8[4611686018427387904]", "u8", new long[] {1L << 62}, false, null, List.of(), 0, 0, List.of());
        for (int i = 0; i < 3; i++) values.add(new HloValue(i, "v" + i, "{}", false, false, 0, 8, 0, i, huge, List.of(), List.of(), new LiveRange(0, 1)));
        HloModule.Info info = new HloModule.Info("big", "big", 0, "cpu", List.of(), 1, null, null, -1, null, new TreeMap<>(), true, null);
        HloModule m = new HloModuleBuilder(info).values(values).build();
        assertThrows(ArithmeticException.class, () -> Liveness.of(m));
        assertThrows(ArithmeticException.class, () -> Liveness.of(m));   // not kept
    }
}
