package bufq.analysis.whatif;

import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.eval.Catalog;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.testing.TestModules;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * After {@code whatif scale}, the edited copy's {@code steps.live_bytes} was the unscaled
 * figure while {@code occupied_bytes} was scaled. Both scale: the what-if's own sweep and the copy
 * queries see agree at every step.
 */
class ScaleLiveBytesTest {
    private static Outcome whatif(HloModule m, String text) throws Exception {
        return EditSweep.run(m, EditParser.parse(text, Set.copyOf(Catalog.standard().entities())).edits(), Catalog.standard(),
                TilingModel.TPU, n -> n.equals("none") ? TilingModel.NONE : null);
    }

    @Test
    void scaleHalvesLiveAndOccupiedBytesAlike() throws Exception {
        HloModule m = TestModules.toy();
        Outcome o = whatif(m, "scale where size > 0 by 0.5");
        HloModule copy = o.editedModule();
        int peak = Liveness.of(m).peakTime();
        long liveBefore = Liveness.of(m).liveBytes(peak);
        assertTrue(liveBefore > 0, "the toy module has live bytes at its peak");
        for (int t = 0; t < m.steps(); t++) {
            assertEquals(o.after().liveBytes(t), Liveness.of(copy).liveBytes(t), "live bytes at step " + t);
            assertEquals(o.after().occupiedBytes(t), Liveness.of(copy).occupiedBytes(t), "occupied bytes at step " + t);
        }
        long liveAfter = Liveness.of(copy).liveBytes(peak);
        assertTrue(Math.abs(2 * liveAfter - liveBefore) <= m.values().size(), liveBefore + " halved is not " + liveAfter);
    }

    @Test
    void tilingKeepsTheLogicalBytes() throws Exception {
        HloModule m = TestModules.toy();
        Outcome tiled = whatif(m, "tiling none");
        for (int t = 0; t < m.steps(); t++)
            assertEquals(Liveness.of(m).liveBytes(t), Liveness.of(tiled.editedModule()).liveBytes(t), "retiling changes padding only");
    }
}
