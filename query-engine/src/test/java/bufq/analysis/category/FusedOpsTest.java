package bufq.analysis.category;

import bufq.model.HloInstruction;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the instructions inside a fused computation say of each of its outputs, read from HLO text. */
class FusedOpsTest {
    /** A multi-output fusion: output 0 forward (jvp), output 1 backward (transpose), a nested fusion, a shared constant. */
    private static final String TEXT = """
            HloModule jit_step, num_partitions=1

            %inner (p0: f32[8]) -> f32[8] {
              %p0 = f32[8]{0} parameter(0)
              ROOT %neg = f32[8]{0} negate(%p0), metadata={op_name="jit(step)/transpose(jvp())/neg"}
            }

            %fused (param_0: f32[8], param_1: f32[8], param_2: f32[8]) -> (f32[8], f32[8], f32[]) {
              %param_0 = f32[8]{0} parameter(0)
              %tanh = f32[8]{0} tanh(%param_0), metadata={op_name="jit(step)/jvp()/tanh"}
              %param_1 = f32[8]{0} parameter(1)
              %f = f32[8]{0} fusion(%param_1), kind=kLoop, calls=%inner
              %zero = f32[] constant(0), metadata={op_name="jit(step)/transpose(jvp())/reduce_sum"}
              %param_2 = f32[8]{0} parameter(2)
              %sum = f32[] reduce(%param_2, %zero), dimensions={0}, to_apply=%add
              ROOT %t = (f32[8]{0}, f32[8]{0}, f32[]) tuple(%tanh, %f, %sum)
            }

            ENTRY %main (a: f32[8]) -> f32[8] {
              %a = f32[8]{0} parameter(0)
              ROOT %x = (f32[8]{0}, f32[8]{0}, f32[]) fusion(%a, %a, %a), kind=kLoop, calls=%fused
            }
            """;

    private static HloInstruction fusion(String calls) {
        return HloInstruction.of("x", 0, null, "fusion", List.of("a", "a", "a"), null, null, 0, "kind=kLoop, calls=%" + calls, null);
    }

    @Test
    void eachOutputTakesThePassOfTheInstructionsItIsComputedFrom() throws Exception {
        FusedOps f = FusedOps.read(new BufferedReader(new StringReader(TEXT)));
        assertTrue(f.known());
        FusedOps.Output forward = f.of(fusion("fused"), "{0}"), backward = f.of(fusion("fused"), "{1}");
        assertTrue(forward.named() && forward.marked() && !forward.backward(), "tanh is jvp(): " + forward);
        assertTrue(backward.backward(), "a nested fusion's transpose( instruction: " + backward);
        assertTrue(forward.reads(0) && !forward.reads(1), "output 0 reads operand 0 only: " + forward);
        assertTrue(backward.reads(1) && !backward.reads(0), "output 1 reads operand 1 only: " + backward);
        FusedOps.Output sum = f.of(fusion("fused"), "{2}");
        assertFalse(sum.backward(), "a constant shared with the backward pass says nothing: " + sum);
        assertTrue(f.of(fusion("fused"), "{}").backward(), "the tuple's table: what any output says");
    }

    @Test
    void withoutTheComputationNothingIsKnown() throws Exception {
        FusedOps f = FusedOps.read(new BufferedReader(new StringReader(TEXT)));
        assertNull(f.of(fusion("elsewhere"), "{}"));
        assertNull(FusedOps.NONE.of(fusion("fused"), "{0}"));
        assertEquals(false, FusedOps.NONE.known());
    }
}
