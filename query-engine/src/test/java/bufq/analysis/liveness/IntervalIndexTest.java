package bufq.analysis.liveness;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The interval index answers exactly as a scan of every range would, in ascending id order. */
class IntervalIndexTest {
    static int[] scan(int[] starts, int[] ends, int from, int to) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < starts.length; i++) {
            if (ends[i] >= starts[i] && starts[i] <= to && from <= ends[i] && from <= to) out.add(i);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Both ways an index answers: by its first queries' scans, and by the tree built after them. */
    static void check(int[] starts, int[] ends, int from, int to) {
        check(new IntervalIndex(starts, ends), starts, ends, from, to);
        IntervalIndex built = new IntervalIndex(starts, ends);
        for (int i = 0; i < IntervalIndex.SCANS; i++) built.during(0, 0);
        check(built, starts, ends, from, to);
    }

    static void check(IntervalIndex ix, int[] starts, int[] ends, int from, int to) {
        int[] want = scan(starts, ends, from, to);
        assertArrayEquals(want, ix.during(from, to), "during " + from + ".." + to);
        List<Integer> seen = new ArrayList<>();
        ix.overlapping(from, to, seen::add);
        int[] got = seen.stream().mapToInt(Integer::intValue).sorted().toArray();
        assertArrayEquals(want, got, "overlapping " + from + ".." + to);
        if (from == to) assertArrayEquals(want, ix.at(from));
    }

    @Test
    void randomRangesMatchAScan() {
        Random r = new Random(8);
        for (int round = 0; round < 300; round++) {
            int n = r.nextInt(round < 50 ? 20 : 400);
            int span = 1 + r.nextInt(round % 3 == 0 ? 10 : 2000);
            int[] s = new int[n], e = new int[n];
            for (int i = 0; i < n; i++) {
                s[i] = r.nextInt(span) - (r.nextInt(10) == 0 ? span / 2 : 0);
                // Some long-lived (step 0 to the end), some empty (end < start), most short.
                int kind = r.nextInt(10);
                e[i] = kind == 0 ? span : kind == 1 ? s[i] - 1 - r.nextInt(3) : s[i] + r.nextInt(1 + span / 10);
                if (kind == 2) s[i] = 0;
            }
            IntervalIndex ix = new IntervalIndex(s, e);
            for (int q = 0; q < 40; q++) {
                int a = r.nextInt(span + 4) - 2, b = q % 2 == 0 ? a : a + r.nextInt(span / 4 + 2) - 1;
                int[] want = scan(s, e, a, b);
                assertArrayEquals(want, ix.during(a, b), "round " + round + " during " + a + ".." + b);
            }
            check(s, e, span / 2, span / 2);
        }
    }

    @Test
    void edgeCases() {
        check(new int[0], new int[0], 0, 0);
        check(new int[] {5}, new int[] {5}, 5, 5);
        check(new int[] {5}, new int[] {5}, 4, 4);
        check(new int[] {5}, new int[] {4}, 4, 5);
        check(new int[] {0, 0, 0}, new int[] {9, 9, 9}, 3, 3);
        check(new int[] {0, 3}, new int[] {9, 3}, 7, 2);   // from > to: nothing
        int[] s = new int[1000], e = new int[1000];
        for (int i = 0; i < s.length; i++) { s[i] = i; e[i] = i; }   // disjoint: many small nodes
        for (int t : new int[] {-1, 0, 1, 499, 500, 998, 999, 1000}) check(s, e, t, t);
        check(s, e, 100, 900);
        Arrays.fill(e, 2000);                                      // nested
        check(s, e, 500, 500);
        check(s, e, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    @Test
    void sizeCountsOnlyNonEmptyRanges() {
        assertEquals(2, new IntervalIndex(new int[] {0, 4, 1}, new int[] {3, 3, 1}).size());
    }
}
