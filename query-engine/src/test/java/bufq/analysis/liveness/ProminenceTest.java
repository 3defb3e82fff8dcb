package bufq.analysis.liveness;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Peaks and prominences against what scipy.signal.find_peaks(x, prominence=0) printed for the same series. */
class ProminenceTest {
    // series, then scipy's peaks, prominences, left_bases, right_bases
    private static final long[][][] SCIPY = {
            {{0, 5, 5, 5, 0}, {2}, {5}, {0}, {4}},
            {{0, 3, 1, 4, 1, 2, 0}, {1, 3, 5}, {2, 4, 1}, {0, 0, 4}, {2, 6, 6}},
            {{1, 2, 2, 1, 3, 3, 3, 3, 0}, {1, 5}, {1, 2}, {0, 3}, {3, 8}},
            {{5, 1, 5}, {}, {}, {}, {}},
            {{0, 1, 1}, {}, {}, {}, {}},
            {{3, 3, 3}, {}, {}, {}, {}},
            {{0, 2, 1, 2, 0}, {1, 3}, {2, 2}, {0, 0}, {4, 4}},
            {{0, 4, 2, 6, 2, 4, 0, 10, 0}, {1, 3, 5, 7}, {2, 6, 2, 10}, {0, 0, 4, 6}, {2, 6, 6, 8}},
    };

    @Test
    void peaksAndProminencesAreScipys() {
        for (long[][] c : SCIPY) {
            List<Prominence.Peak> got = Prominence.peaks(c[0]);
            assertEquals(c[1].length, got.size(), java.util.Arrays.toString(c[0]));
            for (int i = 0; i < got.size(); i++) {
                Prominence.Peak p = got.get(i);
                assertEquals(c[1][i], p.middle());
                assertEquals(c[2][i], p.prominence());
                assertEquals(c[3][i], p.leftBase());
                assertEquals(c[4][i], p.rightBase());
            }
        }
    }

    @Test
    void prominentKeepsThoseAtLeastTheShareOfTheMaximum() {
        long[] x = {0, 4, 2, 6, 2, 4, 0, 10, 0};
        assertEquals(List.of(3, 7), Prominence.prominent(x, 0.21).stream().map(Prominence.Peak::middle).toList());
        assertEquals(List.of(1, 3, 5, 7), Prominence.prominent(x, 0.2).stream().map(Prominence.Peak::middle).toList(),
                "a prominence of exactly 2 = 20% of 10 stays");
    }

    @Test
    void rankedPutsTheHighestFirstEvenAtAnEnd() {
        List<Prominence.Ranked> r = Prominence.ranked(new long[] {0, 4, 1, 9, 9}, 0.2);
        assertEquals(3, r.get(0).step());
        assertEquals(4, r.get(0).to());
        assertFalse(r.get(0).scipy(), "scipy never reports a top that runs to the last step");
        assertEquals(9, r.get(0).prominence(), "only the side it has counts: down to 0 on the left");
        assertEquals(1, r.get(1).step());
        assertTrue(r.get(1).scipy());
        assertEquals(List.of(), Prominence.ranked(new long[0], 0.2));
        Prominence.Ranked flat = Prominence.ranked(new long[] {2, 2, 2}, 0.2).get(0);
        assertEquals(0, flat.step());
        assertEquals(2, flat.to());
    }
}
