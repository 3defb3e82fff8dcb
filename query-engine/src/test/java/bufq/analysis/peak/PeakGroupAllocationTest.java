package bufq.analysis.peak;

import bufq.analysis.peak.Peak;
import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A grouped row of {@code peak} (values of one op_name and shape) showed allocation null
 * although both its values were in allocation 60. A group names its allocation when all its values
 * share it, and null only when they are in several.
 */
class PeakGroupAllocationTest {
    static final String DUMP = """
            BufferAssignment:
            allocation 0: size 2048, preallocated-temp:
             value: <1 a.1 @0> (size=1024,offset=0): f32[256]
             value: <2 a.2 @0> (size=1024,offset=1024): f32[256]
            allocation 1: size 1020, preallocated-temp:
             value: <3 b.1 @0> (size=1020,offset=0): f32[255]
            allocation 2: size 1020, preallocated-temp:
             value: <4 b.2 @0> (size=1020,offset=0): f32[255]

            Total bytes used: 4088 (4.0KiB)

            HloLiveRange (max 3):
              InstructionSequence:
                0:a.1
                1:a.2
                2:b.1
                3:b.2
              BufferLiveRange:
                a.1{}:0-3
                a.2{}:1-3
                b.1{}:2-3
                b.2{}:3-3
            """;

    @Test
    void aGroupInOneAllocationNamesIt() throws Exception {
        HloModule m = DumpLoader.loadText("module_0000.jit_pairs.cpu_after_optimizations-buffer-assignment.txt", DUMP);
        assertEquals(3, Liveness.of(m).peakTime());
        List<Output> out = Peak.report(m, OptionalInt.empty(), 0, TilingModel.TPU);
        Table t = out.stream().filter(o -> o instanceof Table x && x.title() != null && x.title().startsWith("values live at"))
                .map(Table.class::cast).findFirst().orElseThrow();
        int value = t.columns().stream().map(c -> c.name()).toList().indexOf("value");
        int alloc = t.columns().stream().map(c -> c.name()).toList().indexOf("allocation");
        assertEquals(2, t.size(), "two groups: " + t.rows());
        for (int r = 0; r < t.size(); r++) {
            String label = (String) t.cell(r, value);
            if (label.startsWith("a.")) assertEquals(0L, t.cell(r, alloc), label);
            else assertEquals(null, t.cell(r, alloc), label + ": its values are in allocations 1 and 2");
        }
    }
}
