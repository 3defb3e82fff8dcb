package bufq.analysis;

import bufq.dump.DumpLoader;
import bufq.dump.file.ModuleSource;
import bufq.model.HloModule;
import bufq.analysis.liveness.Liveness;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On every module of the corpus and the seeds, bufq's occupied and live bytes per step, and the peak
 * (overall and per colour), agree with {@link OccupancyOracle}, written without bufq's liveness code.
 */
class LivenessCorpusTest {
    @Test
    void occupancyAndPeakAgreeWithTheOracleOnEveryRealModule() throws Exception {
        int modules = 0, labelDiffers = 0;
        List<String> failures = new ArrayList<>();
        for (Path p : CorpusSweepAnalysisTest.dumps()) {
            for (ModuleSource src : DumpLoader.discover(List.of(p))) {
                HloModule m = src.load();
                String where = src.files().get(0) + " (" + m.handle() + ")";
                modules++;
                Liveness l = Liveness.of(m);
                long[] occupied = OccupancyOracle.occupied(m, null);
                assertArrayEquals(occupied, l.occupiedBytesByStep(OptionalInt.empty()), where + ": occupied bytes");
                assertArrayEquals(OccupancyOracle.live(m, null), l.liveBytesByStep(OptionalInt.empty()), where + ": live bytes");
                boolean ranges = m.values().stream().anyMatch(v -> v.hasRange() && v.rangeStart() <= v.rangeEnd()
                        && v.rangeStart() < m.steps());
                int want = ranges ? OccupancyOracle.firstMax(occupied) : -1;
                if (want != l.peakTime()) failures.add(where + ": peak " + l.peakTime() + ", oracle " + want);
                if (want >= 0) assertEquals(occupied[want], l.peakBytes(), where);
                for (int c : Liveness.of(m).colors()) {
                    long[] oc = OccupancyOracle.occupied(m, c);
                    assertArrayEquals(oc, l.occupiedBytesByStep(OptionalInt.of(c)), where + ": colour " + c);
                    // A colour none of whose values has a live range has no peak (not step 0 of zeros).
                    boolean colourRanges = m.values().stream().anyMatch(v -> v.color() == c && v.hasRange()
                            && v.rangeStart() <= v.rangeEnd() && v.rangeStart() < m.steps() && v.rangeEnd() >= 0);
                    assertEquals(colourRanges ? OccupancyOracle.firstMax(oc) : -1, l.peakTime(c), where + ": peak of colour " + c);
                }
                if (want >= 0 && l.claimedPeakTime() >= 0 && l.claimedPeakTime() != want) labelDiffers++;
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        assertTrue(modules >= 70, "expected the whole corpus, swept " + modules);
        assertTrue(labelDiffers >= 10, "the corpus has many modules whose label is not the peak; found " + labelDiffers);
    }
}
