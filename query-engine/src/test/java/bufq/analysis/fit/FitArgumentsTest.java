package bufq.analysis.fit;

import bufq.model.ProgramSizes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A program's arguments are the arrays held before it that it takes: counted once (in its needs),
 * never proposed to drop; and with no capacity, a message's figures bound what was free.
 */
class FitArgumentsTest {
    static final long MIB = 1 << 20;

    /** jit_init makes 100 MiB of parameters; jit_step takes them (not donated) with 10 MiB of data and a 500 MiB temp. */
    static List<Program> initThenStep(boolean donate) {
        Program init = new Program("jit_init", "jit_init", new ProgramSizes(0, 100 * MIB, 0, 0, 0, -1),
                List.of(new HeldArray("jit_init", 0, "output", "f32[26214400]", 100 * MIB, "outputs: result")), -1, -1);
        long args = 110 * MIB, out = 100 * MIB;
        List<HeldArray> arrays = new java.util.ArrayList<>(List.of(
                new HeldArray("jit_step", 0, donate ? "parameter 0, output" : "parameter 0", "f32[26214400]", 100 * MIB, "weights"),
                new HeldArray("jit_step", 1, "parameter 1", "f32[2621440]", 10 * MIB, "inputs"),
                new HeldArray("jit_step", 3, "output", "f32[1]", 4, "outputs: result")));
        if (!donate) arrays.add(new HeldArray("jit_step", 2, "output", "f32[26214400]", 100 * MIB, "outputs: new weights"));
        Program step = new Program("jit_step", "jit_step", new ProgramSizes(args, out, donate ? out : 0, 500 * MIB, 0, -1),
                arrays, 4, -1);
        return List.of(init, step);
    }

    @Test
    void theParametersATrainingStepTakesAreNotHeldTwice() {
        List<Fit.Step> steps = Fit.steps(initThenStep(false), new Capacity(1L << 40, 0, "t"), Keep.ALL);
        Fit.Step step = steps.get(1);
        assertEquals(0, step.heldBeforeBytes(), "the init output is the step's argument, in its needs");
        assertEquals(List.of("jit_init:0"), step.reads().stream().map(HeldArray::name).toList());
        assertEquals(step.needsBytes(), step.totalBytes());
    }

    @Test
    void neverProposesDroppingAnArgumentOfTheFailingProgram() {
        List<Program> ps = initThenStep(false);
        // the step alone needs 710 MiB; 700 MiB offered: only its temp can shrink
        List<Changes.Change> changes = Changes.of(ps, new Capacity(700 * MIB, 0, "t"), Keep.ALL, "");
        assertFalse(changes.isEmpty());
        for (Changes.Change c : changes) assertFalse(c.target().equals("jit_init:0"), c.toString());
        // with another program's output held beside it, that one is what to drop
        Program other = new Program("jit_cache", "jit_cache", new ProgramSizes(0, 300 * MIB, 0, 0, 0, -1),
                List.of(new HeldArray("jit_cache", 0, "output", "f32[78643200]", 300 * MIB, "outputs: result")), -1, -1);
        List<Program> three = List.of(ps.get(0), other, ps.get(1));
        Capacity c = new Capacity(900 * MIB, 0, "t");
        Fit.Step over = Fit.firstOver(Fit.steps(three, c, Keep.ALL));
        assertNotNull(over);
        assertEquals("jit_step", over.program().handle());
        List<String> targets = Changes.of(three, c, Keep.ALL, "").stream().filter(x -> !x.kind().equals("cut temp"))
                .map(Changes.Change::target).toList();
        assertEquals(List.of("jit_cache:0"), targets);
    }

    @Test
    void aDonatedArgumentIsGoneAfterTheCall() {
        FitReport r = FitReport.of(initThenStep(true), new Capacity(1L << 40, 0, "t"), Keep.ALL, "");
        Fit.Kept init = r.kept().stream().filter(k -> k.array().name().equals("jit_init:0")).findFirst().orElseThrow();
        assertEquals(2, init.heldUntil(), "read and donated by step 2");
        assertFalse(init.heldAt(r.steps().get(1)));
    }

    @Test
    void withoutACapacityTheMessageBoundsItAndSaysWhatIsUnknown() throws Exception {
        List<Program> ps = FitTest.pair();
        Failure f = new Failure("jit__lambda#2", 4_608_000_000L, -1, -1, "message 1 of run.log");
        FitReport r = FitReport.of(ps, null, Keep.ALL, "", List.of(f));
        Fit.Step over = r.firstOver();
        assertNotNull(over);
        assertEquals("jit__lambda#2", over.program().handle());
        assertTrue(r.capacity().bound());
        assertEquals(0, r.capacity().reservedBytes(), "no reservation invented");
        long args = over.program().sizes().argumentBytes(), output = 96_000;   // its output is allocated before its temp
        assertEquals(over.heldBeforeBytes() + args + output + 4_608_000_000L - 1, r.capacity().bytes());
        String notes = String.join("\n", r.evidence());
        assertTrue(notes.contains("capacity unknown") && notes.contains("1.4 GB"), notes);
        assertTrue(notes.contains("message 1 of run.log"), notes);
        // the real fix (not keeping the first program's 1 GiB output) is the drop proposed
        assertEquals("jit__lambda:0", r.changes().get(0).target());
    }

    @Test
    void withoutACapacityOrAMessageFitSaysWhatItNeeds() throws Exception {
        List<Program> ps = FitTest.pair();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FitReport.of(ps, null, Keep.ALL, "", List.of()));
        assertTrue(e.getMessage().startsWith("fit needs a capacity"), e.getMessage());
    }
}
