package bufq.shell.script;

import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.Shape;

import java.util.List;
import java.util.TreeMap;

/** Hand-made modules with known faults. */
final class Doctored {
    private Doctored() {}

    static Shape f32(long n) {
        return new Shape("f32[" + n + "]{0}", "f32", new long[]{n}, false, new int[]{0}, List.of(), 0, 0, List.of());
    }

    /** In allocation 0: a [0,64) live 0-3; b [32,64) live 2-4 overlaps it; c [0,32) live 3-5 takes a's bytes at the hand-over step 3. */
    static HloModule overlapping() {
        List<HloValue> values = List.of(
                new HloValue(1, "a", "{}", false, false, 0, 64, 0, 0, f32(16), List.of(), List.of(), new LiveRange(0, 3)),
                new HloValue(2, "b", "{}", false, false, 0, 32, 32, 0, f32(8), List.of(), List.of(), new LiveRange(2, 4)),
                new HloValue(3, "c", "{}", false, false, 0, 32, 0, 0, f32(8), List.of(), List.of(), new LiveRange(3, 5)));
        List<BufferAllocation> allocs = List.of(
                new BufferAllocation(0, 256, 0, -1, null, null, null, false, false, false, false, null, true, List.of(1L, 2L, 3L)));
        List<String> seq = List.of("a", "x", "b", "c", "y", "z");
        List<HloInstruction> ins = new java.util.ArrayList<>();
        for (int i = 0; i < seq.size(); i++) ins.add(HloInstruction.sequenced(seq.get(i), i));
        HloModule.Info info = new HloModule.Info("doctored", "doctored", 0, "cpu", List.of("doctored-buffer-assignment.txt"), 5, 256L,
                null, -1, null, new TreeMap<>(), true, null);
        return new HloModule(info, allocs, values, ins, seq, List.of());
    }

    /** Two outputs of instruction d born at step 0 in the same bytes: an overlap, not a hand-over. */
    static HloModule twoOutputs() {
        List<HloValue> values = List.of(
                new HloValue(1, "d", "{0}", true, false, 0, 64, 0, 0, f32(16), List.of(), List.of(), new LiveRange(0, 2)),
                new HloValue(2, "d", "{1}", true, false, 0, 64, 0, 0, f32(16), List.of(), List.of(), new LiveRange(0, 0)));
        List<BufferAllocation> allocs = List.of(
                new BufferAllocation(0, 64, 0, -1, null, null, null, false, false, false, false, null, true, List.of(1L, 2L)));
        List<String> seq = List.of("d", "x", "y");
        List<HloInstruction> ins = new java.util.ArrayList<>();
        for (int i = 0; i < seq.size(); i++) ins.add(HloInstruction.sequenced(seq.get(i), i));
        HloModule.Info info = new HloModule.Info("outputs", "outputs", 0, "cpu", List.of("outputs-buffer-assignment.txt"), 2, 64L,
                null, -1, null, new TreeMap<>(), true, null);
        return new HloModule(info, allocs, values, ins, seq, List.of());
    }
}
