package bufq.analysis.blame;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How blame splits op_names and parameter paths into levels, as XLA's stack-trace breakdown does. */
class OpNamesTest {
    @Test
    void splitParamsFollowsXla() {
        assertEquals(List.of("params", "layer", "fc", "w"), StackTree.splitParams("params['layer/fc'].w"));
        assertEquals(List.of("params ['gap']"), StackTree.splitParams("params ['gap']"));
        assertEquals(List.of("x"), StackTree.splitParams("x"));
        assertEquals(List.of("jit(f)/div"), StackTree.splitParams("jit(f)/div"));
    }

    @Test
    void opNameSplitsOutsideParens() {
        assertEquals(List.of("jit(step)", "transpose(jvp(a/b))", "div"),
                BlameReport.splitOpName("jit(step)/transpose(jvp(a/b))/div"));
    }
}
