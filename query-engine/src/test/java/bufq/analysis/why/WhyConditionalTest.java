package bufq.analysis.why;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.liveness.RangeEnd;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The root of a conditional's branch was said to be held "for the loop". A public GPU
 * dump runs {@code conditional.3.0} (step 172) with branches region_3 (root tuple.23) and region_4
 * (root tuple.24); the rnn-scan while loop's body root stays a loop's.
 */
class WhyConditionalTest {
    @Test
    void aBranchRootIsHeldForItsConditional() throws Exception {
        Path f = Corpus.requireFile("public", "module_0735.jit__scan_window.sm_8.0_gpu-buffer-assignment.txt");
        HloModule m = DumpLoader.discover(List.of(f)).get(0).load();
        for (String root : List.of("tuple.23", "tuple.24")) {
            RangeEnd e = RangeEnd.of(m, m.valueByKey(root + "{}"));
            assertEquals(RangeEnd.Reason.CARRY, e.reason(), root);
            assertTrue(e.detail().contains("the result of a branch of conditional.3.0 (conditional, step 172); XLA holds it for the conditional"), e.detail());
            assertFalse(e.detail().contains("loop"), e.detail());
        }
    }

    @Test
    void aLoopBodyRootIsStillHeldForTheLoop() throws Exception {
        Path dir = Corpus.require("jax-0.10.2/rnn-scan");
        HloModule m = DumpLoader.discover(List.of(dir)).get(0).load();
        int carried = 0;
        for (HloValue v : m.values()) {
            RangeEnd e = RangeEnd.of(m, v);
            if (e.reason() != RangeEnd.Reason.CARRY) continue;
            carried++;
            assertTrue(e.detail().contains("(while, step ") && e.detail().contains("XLA holds it for the loop"), e.detail());
        }
        assertTrue(carried > 0, "rnn-scan has loop carries");
    }
}
