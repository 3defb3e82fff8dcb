package bufq.analysis.fit;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pair case (oom-cpu): the second program fits alone under the 7,000,000 KiB limit, but not
 * while the first program's 1 GiB output is held. The process's own address space (the interpreter
 * and its libraries) is the reservation: any figure in (1,483,874,800, 2,559,807,996] B reproduces
 * both facts of the run; 2 GiB is used here.
 */
class FitTest {
    static final long LIMIT = 7_000_000L * 1024, RESERVED = 2L << 30;

    static List<Program> pair() throws Exception {
        List<HloModule> ms = DumpLoader.load(List.of(MemoryAnalysisTest.FIXTURE.resolve("dump")));
        // as a session names them: the second program of a name is NAME#2
        Map<String, Integer> seen = new HashMap<>();
        return ms.stream().map(Program::of).map(p -> {
            int n = seen.merge(p.handle(), 1, Integer::sum);
            return n == 1 ? p : p.renamed(p.handle() + "#" + n);
        }).toList();
    }

    @Test
    void theSecondProgramFitsAloneButNotWithTheFirstsOutputKept() throws Exception {
        List<Program> ps = pair();
        FitReport r = FitReport.of(ps, new Capacity(LIMIT, RESERVED, "ulimit -v"), Keep.ALL, "");
        Fit.Step over = r.firstOver();
        assertNotNull(over);
        assertEquals("jit__lambda#2", over.program().handle());
        assertTrue(over.fitsAlone());
        // held before it: the first program's scalar parameter and output (8 B), then each program's output
        // (2,097,152 + 1,073,741,824 + 96,000 B): every later parameter is the output before it (same shape
        // and size), the caller's array, not a new one; and the last output is its own argument, counted in its needs
        assertEquals(8L + 2_097_152L + 1_073_741_824L + 96_000L - 96_000L, over.heldBeforeBytes());
        assertEquals(1, over.reads().size());
        assertEquals("jit_broadcast_in_dim#2:0", over.reads().get(0).name());
        assertEquals(663_514_636L, over.overBytes());
        String line = r.failure();
        assertTrue(line.startsWith("jit__lambda#2 fits alone but not with the arrays kept before it"), line);
        assertTrue(line.contains("(" + over.overBytes() + " B)"), line);
        assertTrue(line.contains("jit__lambda:0, output of jit__lambda f32[262144,1024], 1.0GiB"), line);
    }

    @Test
    void droppingTheSuggestedArrayMakesTheSetFit() throws Exception {
        List<Program> ps = pair();
        Capacity c = new Capacity(LIMIT, RESERVED, "ulimit -v");
        List<Changes.Change> changes = Changes.of(ps, c, Keep.ALL, "");
        Changes.Change drop = changes.get(0);
        assertEquals("drop", drop.kind());
        assertEquals("jit__lambda:0", drop.target());
        assertEquals("fit drop jit__lambda:0", drop.statement());
        assertNull(Fit.firstOver(Fit.steps(ps, c, new Keep(List.of(), List.of("jit__lambda:0")))));
        Changes.Change cut = changes.get(1);
        assertEquals("cut temp", cut.kind());
        assertEquals("whatif scale where allocation = 15 by 0.85", cut.statement());
        // 0.85 of the temp is below what is offered beside the arrays held
        Fit.Step s = Fit.firstOver(Fit.steps(ps, c, Keep.ALL));
        assertTrue(s.totalBytes() - (long) (0.15 * 4_608_000_000L) <= c.offeredBytes());
    }

    @Test
    void withoutTheReservationEverythingFitsAndKeepNoneIsEachAlone() throws Exception {
        List<Program> ps = pair();
        assertNull(FitReport.of(ps, new Capacity(LIMIT, 0, "x"), Keep.ALL, "").failure());
        FitReport none = FitReport.of(ps, new Capacity(4_608_192_004L, 0, "x"), new Keep(List.of("none"), List.of()), "");
        assertNull(none.failure());
        FitReport tight = FitReport.of(ps, new Capacity(4_608_192_003L, 0, "x"), new Keep(List.of("none"), List.of()), "");
        assertEquals("jit__lambda#2 does not fit alone: needs 4.3GiB of 4.3GiB offered, over by 1B (1 B)", tight.failure());
    }

    @Test
    void aSpecThatNamesNoArrayIsRefused() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FitReport.of(pair(),
                new Capacity(LIMIT, 0, "x"), new Keep(List.of(), List.of("jit__lambda:7")), ""));
        assertTrue(e.getMessage().startsWith("'jit__lambda:7' names no array"), e.getMessage());
    }

}
