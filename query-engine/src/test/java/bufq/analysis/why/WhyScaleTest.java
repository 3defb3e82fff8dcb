package bufq.analysis.why;

import bufq.dump.DumpLoader;
import bufq.dump.proto.HostileProtos;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code why} on a value with a 100,000-long chain of positions and uses. Looking up each
 * use's position by scanning every position was quadratic (10k/20k/40k: 1.9/4.4/16 s; 100k never
 * ended); it is linear now. The bound counts this thread's processor time and is generous: it
 * fails only a return to quadratic work, never a busy machine.
 */
class WhyScaleTest {
    static final int N = 100_000;

    static HloModule chain(Path dir, int n) throws Exception {
        Path f = Files.write(dir.resolve("chain.hlo.pb"), HostileProtos.bitcastChain(n, false));
        return DumpLoader.discover(List.of(f)).get(0).load();
    }

    @Test
    void aHundredThousandLongChainIsExplainedInLinearTime(@TempDir Path dir) throws Exception {
        HloModule m = chain(dir, N);
        HloValue p = m.valuesNamed("p").get(0);
        assertEquals(N, p.positions().size());
        List<WhyReport> r = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            ThreadMXBean t = ManagementFactory.getThreadMXBean();
            long start = t.getCurrentThreadCpuTime();
            List<WhyReport> out = Why.of(m, List.of(p));
            long spent = t.getCurrentThreadCpuTime() - start;
            assertTrue(spent < 8_000_000_000L, "why took " + spent / 1_000_000 + " ms of processor time");
            return out;
        });
        Table uses = r.get(0).uses();
        assertEquals(N + (N - 1), uses.size(), "every position and every use");
        // Each use reads through the position its user's operand names: the bitcast before it.
        int position = uses.columnIndex("position"), user = uses.columnIndex("user");
        long throughTheOneBefore = 0;
        for (int i = 0; i < uses.size(); i++) {
            Object u = uses.cell(i, user), pos = uses.cell(i, position);
            if (u != null && pos != null && !pos.toString().startsWith(u.toString())) throughTheOneBefore++;
        }
        assertEquals(N - 1, throughTheOneBefore);
    }

    /** Ctrl-C and {@code set timeout} interrupt the thread: one value's report stops too, not only between values. */
    @Test
    void anInterruptStopsOneValuesReport(@TempDir Path dir) throws Exception {
        HloModule m = chain(dir, 5_000);
        HloValue p = m.valuesNamed("p").get(0);
        WhyReport.PeakHoldings holdings = new WhyReport.PeakHoldings(m);
        Thread.currentThread().interrupt();
        try {
            assertThrows(CancellationException.class, () -> WhyReport.of(m, p, holdings));
        } finally {
            Thread.interrupted();
        }
    }
}
