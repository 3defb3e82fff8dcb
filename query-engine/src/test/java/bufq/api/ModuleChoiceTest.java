package bufq.api;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Of several modules none of which the user picked, the one the message names, else the one that needs most. */
class ModuleChoiceTest {
    private static HloModule fixture(String name) throws Exception {
        return DumpLoader.load(List.of(Path.of(ModuleChoiceTest.class.getResource("/fixtures/" + name).toURI()))).get(0);
    }

    @Test
    void theMessageWinsOverTheLargestNeeds() throws Exception {
        HloModule smoother = fixture("kernel-smoother");   // needs 61.1 MiB
        HloModule mlp = fixture("mlp-batch/b48");          // needs 21.7 MiB; allocation 28 is 5,771,264 B
        List<HloModule> both = List.of(mlp, smoother);
        assertEquals(new ModuleChoice("jit_smooth", "the largest needs_bytes"), ModuleChoice.of(both, null));
        OomLog log = OomLog.read("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 5771264 bytes.\n", "run.log");
        assertEquals(new ModuleChoice("jit_step", "named by message 1 of run.log"), ModuleChoice.of(both, log));
        OomLog unrelated = OomLog.read("RESOURCE_EXHAUSTED: Out of memory allocating 12345 bytes.\n", "run.log");
        assertEquals("jit_smooth", ModuleChoice.of(both, unrelated).handle());
    }
}
