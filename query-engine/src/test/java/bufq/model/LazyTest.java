package bufq.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The per-module derived data (liveness, the interval tree, first steps, users) is computed once, whoever asks first. */
class LazyTest {
    @Test
    void manyThreadsAskingAtOnceComputeOnce() throws Exception {
        AtomicInteger computed = new AtomicInteger();
        Lazy<Object> lazy = new Lazy<>(() -> {
            computed.incrementAndGet();
            return new Object();
        });
        int n = 8;
        CountDownLatch start = new CountDownLatch(1);
        Object[] got = new Object[n];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int slot = i;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                got[slot] = lazy.get();
            });
            t.start();
            threads.add(t);
        }
        start.countDown();
        for (Thread t : threads) t.join();
        assertEquals(1, computed.get());
        for (Object o : got) assertSame(got[0], o);
    }

    @Test
    void aFailedComputationIsNotKept() {
        AtomicInteger tries = new AtomicInteger();
        Lazy<Object> lazy = new Lazy<>(() -> {
            tries.incrementAndGet();
            throw new ArithmeticException("long overflow");
        });
        assertThrows(ArithmeticException.class, lazy::get);
        assertThrows(ArithmeticException.class, lazy::get);
        assertEquals(2, tries.get());
    }
}
