package bufq.analysis.check;

import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.HloModule;
import bufq.analysis.liveness.Liveness;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fast sweeps against brute force on random allocations. */
class SweepsTest {
    static HloModule random(long seed, int n) {
        Random rnd = new Random(seed);
        String[] steps = new String[20];
        for (int i = 0; i < steps.length; i++) steps[i] = "i" + i;
        TestModules.Builder b = new TestModules.Builder("r" + seed).steps(steps).alloc(0, 64, 0, "preallocated-temp");
        for (int i = 0; i < n; i++) {
            int off = rnd.nextInt(8) * 8, size = (1 + rnd.nextInt(3)) * 8;
            int s = rnd.nextInt(20), e = s + rnd.nextInt(4);
            b.value("v" + i, 0, off, Math.min(size, 64 - off), "u8[" + Math.min(size, 64 - off) + "]",
                    rnd.nextInt(10) == 0 ? null : s + "-" + e);
        }
        return b.build();
    }

    @Test
    void unionPeakMatchesBruteForce() {
        for (long seed = 0; seed < 200; seed++) {
            HloModule m = random(seed, 1 + (int) (seed % 12));
            List<HloValue> vs = m.valuesIn(0);
            Liveness.AllocationUse u = Liveness.of(m).allocationUse(0);
            long best = -1;
            int at = -1;
            for (int t = 0; t <= 24; t++) {
                boolean[] bytes = new boolean[64];
                boolean anyStarts = false;
                for (HloValue v : vs) {
                    LiveRange r = v.range();
                    if (r != null && r.start() == t) anyStarts = true;
                    if (r == null || r.liveAt(t)) for (long k = v.offset(); k < v.offset() + v.size(); k++) bytes[(int) k] = true;
                }
                long c = 0;
                for (boolean x : bytes) if (x) c++;
                if (anyStarts && c > best) {
                    best = c;
                    at = t;
                }
            }
            if (at < 0) {
                boolean[] bytes = new boolean[64];
                for (HloValue v : vs) for (long k = v.offset(); k < v.offset() + v.size(); k++) bytes[(int) k] = true;
                best = 0;
                for (boolean x : bytes) if (x) best++;
            }
            assertEquals(best, u.maxBytes(), "seed " + seed);
            assertEquals(at, u.maxTime(), "seed " + seed);
        }
    }

    @Test
    void overlapSweepFindsEveryConflictingPair() {
        for (long seed = 0; seed < 200; seed++) {
            HloModule m = random(seed, 2 + (int) (seed % 10));
            List<HloValue> vs = new ArrayList<>();
            for (HloValue v : m.valuesIn(0)) if (v.range() != null) vs.add(v);
            int expected = 0, touches = 0;
            for (int i = 0; i < vs.size(); i++)
                for (int j = i + 1; j < vs.size(); j++) {
                    HloValue x = vs.get(i), y = vs.get(j);
                    boolean bytes = x.offset() < y.offset() + y.size() && y.offset() < x.offset() + x.size();
                    if (bytes && OverlapCheck.conflict(x, y)) expected++;
                    else if (bytes && x.range().overlaps(y.range().start(), y.range().end())) touches++;
                }
            int found = Math.min(expected, OverlapCheck.MAX_FINDINGS);
            List<Finding> f = Checks.check(m, null, List.of()).of("overlap").stream()
                    .filter(x -> x.severity() == Severity.ERROR).toList();
            assertEquals(found, f.size(), "seed " + seed);
            List<Finding> notes = Checks.check(m, null, List.of()).of("overlap").stream()
                    .filter(n -> n.severity() == Severity.INFO).toList();
            assertEquals(touches == 0 ? 0 : 1, notes.size(), "seed " + seed);
            if (touches > 0) assertTrue(notes.get(0).message().startsWith(touches + " hand-over"), notes.get(0).message());
        }
    }

    static HloValue v(String name, int start, int end) {
        return new HloValue(0, name, "{}", false, false, 0, 8, 0, 0, TestModules.shape("u8[8]"), List.of(), List.of(),
                new LiveRange(start, end));
    }

    @Test
    void handOverNeedsAnEarlierBirthAndAnotherInstruction() {
        assertEquals(false, OverlapCheck.conflict(v("a", 0, 3), v("b", 3, 5)));
        assertEquals(false, OverlapCheck.conflict(v("b", 3, 5), v("a", 0, 3)));
        assertEquals(true, OverlapCheck.conflict(v("a", 0, 4), v("b", 3, 5)));
        assertEquals(true, OverlapCheck.conflict(v("a", 2, 4), v("b", 3, 3)));
        assertEquals(false, OverlapCheck.conflict(v("a", 0, 2), v("b", 3, 5)));
        // Born at the same step, touching there: not a hand-over.
        assertEquals(true, OverlapCheck.conflict(v("a", 3, 3), v("b", 3, 5)));
        // Two outputs of one instruction: not a hand-over even when one dies as the other is born.
        assertEquals(true, OverlapCheck.conflict(v("t", 0, 3), v("t", 3, 5)));
    }
}
