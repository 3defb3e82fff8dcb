package bufq.shell.script;

import bufq.model.HloModule;
import bufq.model.Shape;
import bufq.testing.TestModules;

import java.util.List;

/** Hand-made modules with known faults. */
final class Doctored {
    private Doctored() {}

    static Shape f32(long n) {
        return new Shape("f32[" + n + "]{0}", "f32", new long[]{n}, false, new int[]{0}, List.of(), 0, 0, List.of());
    }

    /** In allocation 0: a [0,64) live 0-3; b [32,64) live 2-4 overlaps it; c [0,32) live 3-5 takes a's bytes at the hand-over step 3. */
    static HloModule overlapping() {
        return new TestModules.Builder("doctored")
                .steps("a", "x", "b", "c", "y", "z").maxTime(5).files("doctored-buffer-assignment.txt").total(256).firstId(1)
                .alloc(0, 256, 0, "temp")
                .value("a", 0, 0, 64, "f32[16]{0}", "0-3")
                .value("b", 0, 32, 32, "f32[8]{0}", "2-4")
                .value("c", 0, 0, 32, "f32[8]{0}", "3-5")
                .build();
    }

    /** Two outputs of instruction d born at step 0 in the same bytes: an overlap, not a hand-over. */
    static HloModule twoOutputs() {
        return new TestModules.Builder("outputs")
                .steps("d", "x", "y").maxTime(2).files("outputs-buffer-assignment.txt").total(64).firstId(1)
                .alloc(0, 64, 0, "temp")
                .value("d{0}", 0, 0, 64, "f32[16]{0}", "0-2")
                .value("d{1}", 0, 0, 64, "f32[16]{0}", "0-0")
                .build();
    }
}
