package bufq.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A loop split in halves visits every index once, whole below the split size and in two pieces above it. */
class ParallelPassesTest {
    @Test
    void everyIndexOnceInOneOrTwoPieces() {
        for (int n : new int[] {0, 1, 7, ParallelPasses.SPLIT - 1, ParallelPasses.SPLIT, ParallelPasses.SPLIT + 7, 3 * ParallelPasses.SPLIT + 1}) {
            int[] visits = new int[n];
            AtomicInteger pieces = new AtomicInteger();
            ParallelPasses.run(n, (from, to) -> {
                pieces.incrementAndGet();
                for (int i = from; i < to; i++) visits[i]++;
            });
            for (int i = 0; i < n; i++) assertEquals(1, visits[i], "index " + i + " of " + n);
            assertEquals(n < ParallelPasses.SPLIT ? 1 : 2, pieces.get(), "pieces for " + n);
        }
    }

    /** A failing pass fails the call; the other one ran once at most (called off if no thread took it). */
    @Test
    void bothPassesRunAndAFailureIsThrown() {
        for (int n : new int[] {10, ParallelPasses.SPLIT}) {
            AtomicInteger ran = new AtomicInteger();
            ParallelPasses.both(n, ran::incrementAndGet, ran::incrementAndGet);
            assertEquals(2, ran.get(), "both passes for " + n);
            AtomicInteger other = new AtomicInteger();
            ArithmeticException e = assertThrows(ArithmeticException.class,
                    () -> ParallelPasses.both(n, () -> { throw new ArithmeticException("long overflow"); }, other::incrementAndGet));
            assertEquals("long overflow", e.getMessage());
            assertTrue(other.get() <= 1, "the other pass at most once, for " + n);
        }
    }
}
