package bufq.dump.text;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A module's names get one shared instance and one symbol each, whichever view (thread) reads them
 * first: the live-range join indexes an array by the symbol an allocation line's name got.
 */
class InternerTest {
    @Test
    void viewsOnSeveralThreadsAgreeOnInstancesAndSymbols() throws Exception {
        int names = 20_000, threads = 4;
        Interner root = new Interner(16);   // small: the stripes grow while the threads read
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Map<String, Object[]>>> seen = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int self = t;
                seen.add(pool.submit(() -> {
                    Interner view = root.local(1 << 20);
                    // Each thread reads the names in its own order, inside a longer text, twice.
                    StringBuilder text = new StringBuilder();
                    Map<String, int[]> where = new HashMap<>();
                    for (int k = 0; k < names; k++) {
                        String name = "fusion." + ((k * (2 * self + 1)) % names);
                        where.put(name, new int[] {text.length() + 1, text.length() + 1 + name.length()});
                        text.append(' ').append(name).append('\n');
                    }
                    String s = text.toString();
                    start.await();
                    Map<String, Object[]> out = new HashMap<>();
                    for (int round = 0; round < 2; round++) {
                        for (Map.Entry<String, int[]> e : where.entrySet()) {
                            int symbol = view.symbol(s, e.getValue()[0], e.getValue()[1]);
                            Object[] first = out.putIfAbsent(e.getKey(), new Object[] {symbol, view.lastName()});
                            if (first != null) {
                                assertEquals(first[0], symbol, e.getKey());
                                assertSame(first[1], view.lastName(), e.getKey());
                            }
                        }
                    }
                    return out;
                }));
            }
            start.countDown();
            Map<String, Object[]> first = seen.get(0).get();
            boolean[] used = new boolean[names];
            for (Map.Entry<String, Object[]> e : first.entrySet()) {
                int symbol = (Integer) e.getValue()[0];
                assertTrue(symbol >= 0 && symbol < names, "symbols are dense: " + symbol);
                assertTrue(!used[symbol], "one symbol per name: " + symbol);
                used[symbol] = true;
                assertEquals(e.getKey(), e.getValue()[1]);
            }
            for (Future<Map<String, Object[]>> f : seen) {
                for (Map.Entry<String, Object[]> e : f.get().entrySet()) {
                    assertEquals(first.get(e.getKey())[0], e.getValue()[0], e.getKey());
                    assertSame(first.get(e.getKey())[1], e.getValue()[1], e.getKey());
                }
            }
            assertEquals(names, root.symbolCount());
            assertSame(first.get("fusion.7")[1], root.name("fusion.7"), "the root finds the views' instance");
        } finally {
            pool.shutdownNow();
        }
    }
}
