package bufq.analysis.fit;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A jitted initialiser's outputs share their allocations with the random bits drawn before them, so
 * the allocation says nothing of the array it hands back: the value that fills it and lives to the
 * end does, and the training step that takes it reads it as its argument (never an array to drop).
 */
class InitOutputsTest {
    static final Path FIXTURE = Path.of("src/test/resources/fixtures/init-step/dump");

    @Test
    void anInitialisersOutputsAreTheArgumentsOfTheStepThatTakesThem() throws Exception {
        List<HloModule> ms = DumpLoader.load(List.of(FIXTURE));
        List<Program> ps = ms.stream().map(Program::of).toList();
        assertEquals(List.of("jit_init", "jit_train_step"), ps.stream().map(Program::handle).toList());
        assertEquals(List.of("f32[256,512]", "f32[512,10]"), ps.get(0).arrays().stream().filter(a -> a.allocation() < 2)
                .map(HeldArray::shape).toList(), "each output's array, without its layout, as a parameter's shape prints");
        Fit.Step step = Fit.steps(ps, new Capacity(1L << 40, 0, "t"), Keep.ALL).get(1);
        assertEquals(List.of("jit_init:0", "jit_init:1"), step.reads().stream().map(HeldArray::name).sorted().toList());
        // held beside it: the output tuple's 16-byte table and the 8-byte key, not the 544 KiB of weights
        assertEquals(24, step.heldBeforeBytes(), "the weights are the step's arguments, counted in its needs");
    }
}
