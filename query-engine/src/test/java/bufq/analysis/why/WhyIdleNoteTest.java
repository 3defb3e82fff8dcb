package bufq.analysis.why;

import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.table.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A value whose idle stretch holding the peak is shorter than the five {@code why} shows: a note
 * says the peak falls in one of the hidden ones (no corpus module has such a value).
 */
class WhyIdleNoteTest {
    @TempDir Path dir;

    @Test
    void thePeakInAStretchNotShownIsNamed() throws Exception {
        // x.1 is read at steps 6, 12, 18, 24, 30 and 32: five idle runs of 5 steps, then step 31,
        // where big.1 makes the peak.
        StringBuilder used = new StringBuilder("""
                Used values:
                <0 x.1 @0>
                 positions:
                  x.1
                 uses:
                """);
        for (int s : new int[] {6, 12, 18, 24, 30, 32}) used.append("  use.").append(s).append(", operand 0\n");
        used.append("""
                 from instruction: %x.1 = f32[8]{0} parameter(0)
                <1 big.1 @0>
                 positions:
                  big.1
                 uses:
                 from instruction: %big.1 = f32[256]{0} broadcast(%x.1)
                """);
        StringBuilder seq = new StringBuilder();
        for (int t = 0; t <= 32; t++) {
            String name = t == 0 ? "x.1" : t == 31 ? "big.1" : t % 6 == 0 || t == 32 ? "use." + t : "other." + t;
            seq.append("    ").append(t).append(':').append(name).append('\n');
        }
        String dump = """
                BufferAssignment:
                allocation 0: size 32, parameter 0, shape |f32[8]| at ShapeIndex {}:
                 value: <0 x.1 @0> (size=32,offset=0): f32[8]{0}
                allocation 1: size 1024, preallocated-temp:
                 value: <1 big.1 @0> (size=1024,offset=0): f32[256]{0}

                Total bytes used: 1056 (1.03KiB)

                """ + used + """


                HloLiveRange (max 32):
                  InstructionSequence:
                """ + seq + """
                  BufferLiveRange:
                    x.1{}:0-32
                    big.1{}:31-31
                  Live ranges at 31 (peak):
                    x.1{}: 32 bytes (cumulative: 32 bytes)
                    big.1{}: 1024 bytes (cumulative: 1056 bytes)
                """;
        Path f = Files.writeString(dir.resolve("module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt"), dump);
        HloModule m = DumpLoader.discover(List.of(f)).get(0).load();
        assertEquals(31, Liveness.of(m).peakTime());
        Table idle = Why.of(m, m.valuesNamed("x.1")).get(0).idle();
        assertEquals(5, idle.size());
        for (int r = 0; r < idle.size(); r++) assertFalse((Boolean) idle.cell(r, idle.columnIndex("peak_inside")), idle.toString());
        assertTrue(idle.notes().contains("the peak, step 31, falls in one of them: 31..31"), idle.notes().toString());
    }
}
