package bufq.analysis.category;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which pass an op_name is of, also under another transform (per-example gradients are vmap'd). */
class OpNamesPassTest {
    @Test
    void aTransformUnderVmapIsStillItsPass() {
        assertTrue(OpNames.backward("jit(train_step)/transpose(jvp())/dot_general"));
        assertTrue(OpNames.backward("jit(train_step)/vmap(transpose(jvp()))/transpose"));
        assertFalse(OpNames.forward("jit(train_step)/vmap(transpose(jvp()))/transpose"));
        assertTrue(OpNames.forward("jit(train_step)/vmap(jvp())/conv_general_dilated"));
        assertTrue(OpNames.forward("jit(train_step)/jvp()/mul"));
        // the transpose primitive is not the transform, nor is a name that merely contains the word
        assertFalse(OpNames.backward("jit(train_step)/transpose"));
        assertFalse(OpNames.backward("jit(f)/vmap(my_transpose_fn)/mul"));
        assertFalse(OpNames.forward("jit(f)/vmap(f)/mul"));
    }
}
