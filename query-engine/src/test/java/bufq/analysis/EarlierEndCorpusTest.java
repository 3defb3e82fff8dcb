package bufq.analysis;

import bufq.analysis.liveness.SweepInputs;
import bufq.dump.DumpLoader;
import bufq.dump.file.ModuleSource;
import bufq.analysis.liveness.EarlierEnd;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.liveness.Liveness;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link EarlierEnd}, the peak after one value ends earlier found from the per-step arrays, against
 * the whole sweep ({@link Liveness#compute}) on the edited inputs, on every module of the corpus:
 * each value (up to 150 per module, spread over the module) ended at its birth, half-way and one
 * step early.
 */
class EarlierEndCorpusTest {
    private static final int PER_MODULE = 150;

    @Test
    void agreesWithTheWholeSweepOnEveryModule() throws Exception {
        int modules = 0, checked = 0, moved = 0;
        for (Path p : CorpusSweepAnalysisTest.dumps()) {
            for (ModuleSource src : DumpLoader.discover(List.of(p))) {
                HloModule m = src.load();
                Liveness l = Liveness.of(m);
                if (l.peakTime() < 0) continue;
                modules++;
                List<HloValue> vs = m.values();
                int stride = Math.max(1, vs.size() / PER_MODULE);
                for (int i = 0; i < vs.size(); i += stride) {
                    HloValue v = vs.get(i);
                    if (!v.hasRange()) continue;
                    for (int end : new int[] {v.rangeStart(), (v.rangeStart() + v.rangeEnd()) / 2, v.rangeEnd() - 1}) {
                        SweepInputs in = SweepInputs.of(m);
                        in.end()[i] = end;
                        Liveness whole = Liveness.compute(l.steps(), in, l.claimedPeakTime());
                        EarlierEnd fast = EarlierEnd.of(m, v, end);
                        String where = src.files().get(0) + " value " + v.id() + " ended at " + end;
                        assertEquals(whole.peakBytes(), fast.peakBytes(), where);
                        assertEquals(whole.peakTime(), fast.peakTime(), where);
                        checked++;
                        if (whole.peakBytes() != l.peakBytes()) moved++;
                    }
                }
            }
        }
        assertTrue(modules >= 40, "swept " + modules);
        assertTrue(checked > 10_000, "checked " + checked);
        assertTrue(moved > 100, "edits that lower the peak: " + moved);
    }
}
