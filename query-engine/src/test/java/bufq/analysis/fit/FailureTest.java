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
        // capacity - requested - (held before + its argument + its output, which XLA:CPU allocates before the temp) + 1
        long output = 96_000;
        long known = over.heldBeforeBytes() + over.program().sizes().argumentBytes() + output;
        assertEquals(FitTest.LIMIT - 4_608_000_000L - known + 1, r.capacity().reservedBytes());
        assertTrue(r.evidence().get(0).contains("taken as reserved"), r.evidence().toString());
        assertTrue(r.evidence().get(0).contains("93.8KiB of its outputs, which XLA:CPU allocates before the failing request"),
                r.evidence().toString());
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

    /** One program of 10 GiB of HBM: temp 8 GiB, argument and output 1 GiB each (tpu/oom's shape). */
    static List<Program> oneProgram() {
        long gib = 1L << 30;
        return List.of(new Program("jit_step", "jit_step", new ProgramSizes(gib, gib, 0, 8 * gib, 0, -1), List.of(), -1, -1));
    }

    /** A compile XLA refused: fit agrees where its figures do not fit, and says the dump's excess against the message's. */
    @Test
    void aRefusedCompileIsBelieved() {
        long gib = 1L << 30;
        Capacity c = new Capacity(9 * gib, 0, "message 1");
        Failure f = Failure.refused("jit_step", 10 * gib, 9 * gib, "message 1",
                new Failure.Refusal(10 * gib, gib - 1000, gib + 1000, "it says 10.00G against 9.00G"));
        FitReport r = FitReport.of(oneProgram(), c, Keep.ALL, "", List.of(f));
        assertNotNull(r.failure());
        assertEquals(0, r.capacity().reservedBytes());
        String note = r.evidence().get(0);
        assertTrue(note.startsWith("message 1 agrees: the compile refused jit_step (it says 10.00G against 9.00G)"), note);
        assertTrue(note.contains("over the " + 9 * gib + " B offered by " + gib + " B, within the"), note);
        // a capacity above what the program needs by fit's figures: the rest is assumed, so it still fails
        FitReport roomy = FitReport.of(oneProgram(), new Capacity(11 * gib, 0, "m"), Keep.ALL, "",
                List.of(Failure.refused("jit_step", 12 * gib, -1, "message 1",
                        new Failure.Refusal(12 * gib, gib - 1000, gib + 1000, "it says 12.00G against 11.00G"))));
        assertNotNull(roomy.failure());
        assertTrue(roomy.evidence().get(0).contains("taken as reserved"), roomy.evidence().toString());
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
