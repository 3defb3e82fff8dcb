package bufq.analysis.liveness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The covered length, flat and as a tree, against a union computed here from scratch after each change. */
class CoverageTest {
    /** The length of the union of {@code held} (pairs), by sorting. */
    private static long union(List<long[]> held) {
        List<long[]> sorted = new ArrayList<>(held);
        sorted.removeIf(iv -> iv[1] <= iv[0]);
        sorted.sort((x, y) -> Long.compare(x[0], y[0]));
        long total = 0, reach = Long.MIN_VALUE;
        for (long[] iv : sorted) {
            if (iv[1] <= reach) continue;
            total += iv[1] - Math.max(iv[0], reach);
            reach = iv[1];
        }
        return total;
    }

    @Test
    void bothWaysAgreeWithTheUnionOnRandomChanges() {
        Random r = new Random(23);
        for (int round = 0; round < 300; round++) {
            int k = 1 + r.nextInt(40);
            long[] bounds = new long[2 * k];
            boolean wide = r.nextBoolean();   // long intervals spanning many segments, or short ones
            for (int i = 0; i < k; i++) {
                long from = r.nextInt(200), len = wide ? r.nextInt(200) : r.nextInt(12);
                if (r.nextInt(20) == 0) len = -r.nextInt(5);   // empty or inverted: cut points only
                bounds[2 * i] = from;
                bounds[2 * i + 1] = from + len;
            }
            Coverage flat = new Coverage(new Coverage.Intervals(bounds, true));
            Coverage tree = new Coverage(new Coverage.Intervals(bounds, false));
            Coverage chosen = new Coverage(new Coverage.Intervals(bounds));
            List<Integer> held = new ArrayList<>();
            for (int step = 0; step < 60; step++) {
                if (!held.isEmpty() && r.nextInt(3) == 0) {
                    int i = held.remove(r.nextInt(held.size()));
                    for (Coverage c : List.of(flat, tree, chosen)) c.remove(i);
                } else {
                    int i = r.nextInt(k);
                    held.add(i);
                    for (Coverage c : List.of(flat, tree, chosen)) c.add(i);
                }
                List<long[]> intervals = new ArrayList<>();
                for (int i : held) intervals.add(new long[] {bounds[2 * i], bounds[2 * i + 1]});
                long want = union(intervals);
                assertEquals(want, flat.covered(), "flat, round " + round + " step " + step);
                assertEquals(want, tree.covered(), "tree, round " + round + " step " + step);
                assertEquals(want, chosen.covered(), "chosen, round " + round + " step " + step);
            }
        }
    }

    @Test
    void valuesSideBySideAreCountedFlatAndNestedOnesByTheTree() {
        // A packed allocation: each value spans one segment.
        long[] packed = new long[2 * 64];
        for (int i = 0; i < 64; i++) { packed[2 * i] = 16L * i; packed[2 * i + 1] = 16L * (i + 1); }
        assertTrue(new Coverage.Intervals(packed).flat());
        // Every interval spans from its start to the far end: half the segments each, on average.
        long[] nested = new long[2 * 64];
        for (int i = 0; i < 64; i++) { nested[2 * i] = i; nested[2 * i + 1] = 1000; }
        assertFalse(new Coverage.Intervals(nested).flat());
    }

    @Test
    void emptyAndInvertedIntervalsCoverNothingAndCutNothing() {
        Coverage.Intervals iv = new Coverage.Intervals(new long[] {0, 10, 20, 30, 5, 5, 40, 35});
        Coverage c = new Coverage(iv);
        c.add(2);
        c.add(3);
        assertEquals(0, c.covered());
        c.add(0);
        c.add(1);
        c.add(1);
        assertEquals(20, c.covered());
        c.remove(1);
        assertEquals(20, c.covered());
        c.remove(1);
        assertEquals(10, c.covered());
    }
}
