package bufq.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A loop split in halves visits every index once, whole below the split size and in two pieces above it. */
class HalvesTest {
    @Test
    void everyIndexOnceInOneOrTwoPieces() {
        for (int n : new int[] {0, 1, 7, Halves.SPLIT - 1, Halves.SPLIT, Halves.SPLIT + 7, 3 * Halves.SPLIT + 1}) {
            int[] visits = new int[n];
            AtomicInteger pieces = new AtomicInteger();
            Halves.run(n, (from, to) -> {
                pieces.incrementAndGet();
                for (int i = from; i < to; i++) visits[i]++;
            });
            for (int i = 0; i < n; i++) assertEquals(1, visits[i], "index " + i + " of " + n);
            assertEquals(n < Halves.SPLIT ? 1 : 2, pieces.get(), "pieces for " + n);
        }
    }
}
