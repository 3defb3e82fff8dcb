package bufq.dump;

import bufq.dump.file.FileKind;
import bufq.dump.file.LoadException;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.PeakClaim;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Loads every file and every directory under the corpus ({@link Corpus}) and checks the reader's
 * oracles: zero warnings; allocation sizes add up to {@code Total bytes used}; the recomputed peak
 * equals the last cumulative figure (or, on old-style dumps, the live values are exactly the listed
 * names); every live range joins a value; every tiled TPU value's size is its padded size.
 */
class CorpusSweepTest {
    @TestFactory
    Stream<DynamicTest> everyCorpusEntryLoadsAndChecks() throws IOException {
        Path corpus = Corpus.require(Corpus.dir());
        List<Path> entries = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(corpus)) {
            walk.filter(p -> !p.equals(corpus))
                    .filter(p -> Files.isDirectory(p) ? hasDumps(p) : FileKind.of(p.getFileName().toString()) != FileKind.OTHER)
                    .sorted().forEach(entries::add);
        }
        assertFalse(entries.isEmpty());
        return entries.stream().map(p -> DynamicTest.dynamicTest(corpus.relativize(p).toString(), () -> check(p)));
    }

    private static boolean hasDumps(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(f -> Files.isRegularFile(f) && FileKind.of(f.getFileName().toString()) != FileKind.OTHER);
        } catch (IOException e) {
            return false;
        }
    }

    static void check(Path p) throws LoadException {
        List<HloModule> modules = DumpLoader.load(List.of(p));
        assertFalse(modules.isEmpty(), "no module from " + p);
        for (HloModule m : modules) checkModule(m);
    }

    static void checkModule(HloModule m) {
        String where = m.info().files().get(0);
        assertEquals(0, m.warningCount(), () -> where + ": warnings " + m.warnings());
        assertTrue(m.info().truncatedAt() == null, where + " truncated at " + m.info().truncatedAt());
        // A proto claims no total (ProtoAgreesWithTextTest holds it to the text of the same module).
        if (where.endsWith(".pb") || where.contains(".pb#")) return;
        assertNotNull(m.info().claimedTotalBytes(), where + ": no Total bytes used");
        boolean exact = m.allocations().stream().allMatch(BufferAllocation::sizeExact);
        if (exact) assertEquals(m.info().claimedTotalBytes().longValue(), m.totalBytes(), where + ": total bytes");

        PeakClaim peak = m.info().peakClaim();
        if (peak != null) {
            if (peak.cumulative()) {
                assertEquals(peak.claimedBytes(), Liveness.of(m).liveBytesAllSpaces(peak.time()), where + ": recomputed peak (every space, as XLA sums it)");
            } else {
                List<String> live = new ArrayList<>();
                for (HloValue v : LiveValues.at(m, peak.time())) live.add(v.name());
                List<String> listed = new ArrayList<>();
                for (PeakClaim.Entry e : peak.entries()) listed.add(e.key());
                Collections.sort(live);
                Collections.sort(listed);
                assertEquals(listed, live, where + ": names live at the peak");
            }
        }
        for (HloValue v : m.values()) {
            if (!v.shape().tiles().isEmpty()) {
                assertEquals(v.shape().paddedBytes(), v.size(), where + ": padded size of " + v.label() + " " + v.shape());
            }
        }
        // Every value with details has its instruction; every value is in its allocation.
        for (HloValue v : m.values()) {
            assertTrue(m.allocation(v.allocation()).valueIds().contains(v.id()), where + ": " + v.label());
        }
    }
}
