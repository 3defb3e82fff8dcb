package bufq.export;

import bufq.dump.proto.ProtoGen;
import bufq.dump.proto.ProtoReader;
import bufq.eval.Step;
import bufq.lang.QueryException;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code export pprof} of a module with steps but no peak says so, instead of "no step -1". */
class PprofNoPeakTest {
    @Test
    void aScheduleWithoutValuesHasNoPeakToExport() throws Exception {
        ProtoGen g = new ProtoGen();
        long p = g.parameter("p", ProtoGen.array(4), 0);
        g.add("n", "negate", ProtoGen.array(4), p);
        byte[] bytes = g.bytes();
        HloModule m = ProtoReader.load(bytes, 0, bytes.length, 0, "gen.hlo.pb", "gen", -1, "cpu", false);
        assertTrue(m.steps() >= 2, "steps: " + m.steps());
        assertTrue(m.values().isEmpty());
        QueryException e = assertThrows(QueryException.class, () -> Step.resolve(m, "peak"));
        assertEquals("gen has no peak: no value is live at any step; name one with 'at STEP'", e.getMessage());
        // A step named is exported: an empty profile.
        PprofExport.Summary s = PprofExport.write(m, 1, "1", ProfileStacks.STACK, new ByteArrayOutputStream());
        assertEquals(0, s.samples());
    }
}
