package bufq.analysis.fit;

import bufq.model.ProgramSizes;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A failure as evidence, and the changes of a long set that does not fit, linear. */
class FailureTest {
    @Test
    void theFailingProgramNeverFitsTheCapacityTheMessageSaysItFailedOn() throws Exception {
        List<Program> ps = FitTest.pair();
        Capacity limit = new Capacity(FitTest.LIMIT, 0, "ulimit -v");
        assertNull(FitReport.of(ps, limit, Keep.ALL, "").failure(), "the dumps alone say it fits");
        Failure f = new Failure("jit__lambda#2", 4_608_000_000L, -1, -1, "message 1");
        FitReport r = FitReport.of(ps, limit, Keep.ALL, "", List.of(f));
        assertNotNull(r.failure());
        Fit.Step over = r.firstOver();
        assertEquals("jit__lambda#2", over.program().handle());
        // capacity - requested - (held before + its argument) + 1
        long known = over.heldBeforeBytes() + over.program().sizes().argumentBytes();
        assertEquals(FitTest.LIMIT - 4_608_000_000L - known + 1, r.capacity().reservedBytes());
        assertTrue(r.evidence().get(0).contains("taken as reserved"), r.evidence().toString());
        // dropping the first program's output is the change, and it is enough
        assertEquals("jit__lambda:0", r.changes().get(0).target());
        assertNull(FitReport.of(ps, r.capacity(), Keep.ALL.dropping(List.of("jit__lambda:0")), "").failure());
    }

    @Test
    void aMessageOfAnotherCapacityOrProgramIsNotUsed() throws Exception {
        List<Program> ps = FitTest.pair();
        Capacity limit = new Capacity(FitTest.LIMIT, 0, "ulimit -v");
        FitReport other = FitReport.of(ps, limit, Keep.ALL, "", List.of(new Failure("jit__lambda#2", 4_608_000_000L, 1L << 40, -1, "m")));
        assertNull(other.failure());
        assertTrue(other.evidence().get(0).contains("not this one"), other.evidence().toString());
        FitReport absent = FitReport.of(ps, limit, Keep.ALL, "", List.of(new Failure("jit_other", 1, -1, -1, "m")));
        assertNull(absent.failure());
        assertTrue(absent.evidence().get(0).contains("not among the programs"), absent.evidence().toString());
    }

    /** 10,000 programs of 1 MiB in and out against 64 MiB: all but the first few over, one drop set fixes all. */
    /** n programs, each with a 1 MiB output and a 1 MiB input of its own (shapes apart: none is another's argument). */
    static List<Program> chain(int n) {
        List<Program> out = new ArrayList<>(n);
        long mib = 1 << 20;
        for (int i = 0; i < n; i++) {
            String h = "p" + i;
            out.add(new Program(h, h, new ProgramSizes(mib, mib, 0, 0, 0, -1),
                    List.of(new HeldArray(h, 0, "output", "f32[262144]", mib, "outputs: result"), new HeldArray(h, 1, "parameter 0", "s32[262144] of " + h, mib, "inputs")), -1, -1));
        }
        return out;
    }

    @Test
    void tenThousandProgramsThatDoNotFitAreLinear() {
        List<Program> ps = chain(10_000);
        Capacity c = new Capacity(64L << 20, 0, "test");
        List<Changes.Change> changes = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> Changes.of(ps, c, Keep.ALL, ""));
        // each step holds 2 MiB per program before it: step k (0-based) holds 2k MiB + 2 MiB, over from k = 31;
        // the fewest drops leave at most 62 MiB held before the last program: 2 * 9,969 arrays + 1 for the first over
        long drops = changes.stream().filter(x -> !x.kind().equals("cut temp")).count();
        long held = 2L * (ps.size() - 1), keepable = 62;
        assertEquals(held - keepable, drops);
        assertTrue(changes.get(0).statement().startsWith("fit drop "), changes.get(0).statement());
        List<String> names = changes.stream().filter(x -> !x.kind().equals("cut temp")).map(Changes.Change::target).toList();
        assertNull(FitReport.of(ps, c, Keep.ALL.dropping(names), "").failure());
    }

    @Test
    void anInterruptStopsTheChanges() {
        List<Program> ps = chain(1_000);
        Thread.currentThread().interrupt();
        try {
            assertThrows(CancellationException.class, () -> Changes.of(ps, new Capacity(64L << 20, 0, "t"), Keep.ALL, ""));
        } finally {
            Thread.interrupted();
        }
    }
}
