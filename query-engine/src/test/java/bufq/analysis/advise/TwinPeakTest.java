package bufq.analysis.advise;

import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two f32 buffers hold most of the peak and, a few steps later, two others hold 99.8% as
 * much: halving the first two only moves the peak to the second pair, so advise printed "no rule
 * found anything". It now plans against both peaks at once (halving all four) and says which twin
 * blocked the single fix.
 */
class TwinPeakTest {
    static final String DUMP = """
            BufferAssignment:
            allocation 0: size 2048, preallocated-temp:
             value: <1 gather.1 @0> (size=2048,offset=0): f32[512]
            allocation 1: size 2048, preallocated-temp:
             value: <2 gather.2 @0> (size=2048,offset=0): f32[512]
            allocation 2: size 2044, preallocated-temp:
             value: <3 gather.3 @0> (size=2044,offset=0): f32[511]
            allocation 3: size 2044, preallocated-temp:
             value: <4 gather.4 @0> (size=2044,offset=0): f32[511]
            allocation 4: size 8, parameter 0, shape |f32[2]| at ShapeIndex {}:
             value: <0 p.0 @0> (size=8,offset=0): f32[2]

            Total bytes used: 8192 (8.0KiB)

            HloLiveRange (max 6):
              InstructionSequence:
                0:p.0
                1:gather.1
                2:gather.2
                3:add.0
                4:gather.3
                5:gather.4
                6:add.1
              BufferLiveRange:
                p.0{}:0-6
                gather.1{}:1-2
                gather.2{}:2-3
                gather.3{}:4-5
                gather.4{}:5-6
            """;

    @Test
    void bothPeaksAreHalvedAtOnceAndTheTwinIsNamed() throws Exception {
        HloModule m = DumpLoader.loadText("module_0000.jit_moe.cpu_after_optimizations-buffer-assignment.txt", DUMP);
        assertEquals(2, Liveness.of(m).peakTime());
        assertEquals(4104, Liveness.of(m).peakBytes());
        assertEquals(4096, Liveness.of(m).occupiedBytes(5), "the twin, 99.8% as high");
        Advisor.Plan plan = Advisor.plan(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null);
        Advisor.Measured f32 = plan.found().stream().filter(x -> x.advice().rule().equals("f32")).findFirst()
                .orElseThrow(() -> new AssertionError("no f32 finding: " + plan));
        assertEquals("scale where id in (1, 2, 3, 4) by 0.5", f32.advice().editText());
        assertEquals(4104 - 2056, f32.saves(), "both peaks halved: the peak is then p.0 and two halves");
        assertTrue(f32.advice().finding().contains("planned against the peak and its twin at step 5 at once"), f32.advice().finding());
        assertTrue(plan.notes().stream().anyMatch(n -> n.startsWith("f32: whatif scale where id in (1, 2) by 0.5 lowers step 2 by 2.0KiB,"
                + " but step 5, a twin peak holding 99.8% as much, then becomes the peak")), plan.notes().toString());
        Table t = (Table) AdviceList.of(m, plan, null, null).report().get(0);
        assertTrue(t.notes().stream().anyMatch(n -> n.startsWith("twin peak: f32: ")), t.notes().toString());
        assertEquals(plan.found(), Advisor.run(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null));
    }

    @Test
    void aSinglePeakModuleIsPlannedAsBefore() throws Exception {
        String single = DUMP.replace("gather.3{}:4-5", "gather.3{}:4-4").replace("gather.4{}:5-6", "gather.4{}:6-6");
        HloModule m = DumpLoader.loadText("module_0000.jit_moe.cpu_after_optimizations-buffer-assignment.txt", single);
        Advisor.Plan plan = Advisor.plan(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null);
        assertTrue(plan.notes().isEmpty(), plan.notes().toString());
        List<Output> out = AdviceList.of(m, plan, null, null).report();
        assertTrue(((Table) out.get(0)).notes().stream().noneMatch(n -> n.startsWith("twin peak")));
    }

    /**
     * A remat that leaves its value live at the step next to the peak moves the peak one step along
     * a plateau: no dip between them, so no twin (bf16-mlp's steps 19 and 20 hold the same bytes).
     */
    @Test
    void theNextStepOfAPlateauIsNoTwin() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/bf16-mlp"))).get(0);
        assertEquals(Liveness.of(m).occupiedBytes(19), Liveness.of(m).occupiedBytes(20));
        Advisor.Plan plan = Advisor.plan(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null);
        assertTrue(plan.notes().isEmpty(), plan.notes().toString());
    }
}
