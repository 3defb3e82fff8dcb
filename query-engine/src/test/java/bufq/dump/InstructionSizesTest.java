package bufq.dump;

import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.model.LoadOptions;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.analysis.liveness.Liveness;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The liveness weighs values by their defining instruction's whole shape (old dumps' peak lists,
 * XLA's ComputePeakMemoryMoment) from the allocation section alone: on every corpus module it
 * equals the weights taken from the instructions themselves, and leaves the Used values section unread.
 */
class InstructionSizesTest {
    @TestFactory
    Stream<DynamicTest> instructionWeightsFromTheAllocationSectionEqualTheInstructions() throws IOException {
        Path corpus = Corpus.require(Corpus.dir());
        List<ModuleSource> sources = LazyPartsTest.everyBufferAssignment(corpus);
        return sources.stream().map(s -> DynamicTest.dynamicTest(s.files().get(0), () -> compare(s)));
    }

    private static void compare(ModuleSource s) throws LoadException {
        HloModule whole = s.load(LoadOptions.WHOLE);
        HloModule lazy = s.load();
        String where = s.files().get(0);
        int n = whole.steps();
        long[] expected = new long[n];
        long[] xla = new long[n + 2];
        for (HloValue v : whole.values()) {
            if (!v.hasRange()) continue;
            HloInstruction ins = whole.instruction(v.name());
            long b = ins != null && ins.shape() != null ? ins.shape().logicalBytes() : v.logicalSize();
            for (int t = Math.max(0, v.rangeStart()); t <= Math.min(v.rangeEnd(), n - 1); t++) expected[t] += b;
            int from = Math.max(0, Math.min(v.rangeStart(), n)), to = Math.max(0, Math.min(v.rangeEnd() + 1, n));
            if (to < from) continue;
            xla[from] += b;
            xla[to + 1] -= b;
        }
        Liveness l = Liveness.of(lazy);
        for (int t = 0; t < n; t++) assertEquals(expected[t], l.liveBytesByInstruction(t), where + " step " + t);
        assertEquals(xlaMoment(xla, n), l.xlaPeakMoment(), where + ": XLA's peak moment");
        assertEquals(!lazy.info().hasValueDetails(), lazy.usedValues().isRead(), where + ": the Used values section stays unread");
    }

    /** XLA's ComputePeakMemoryMoment over a difference array: the first time with the largest positive sum, else 0. */
    private static int xlaMoment(long[] diff, int n) {
        if (n == 0) return -1;
        long acc = 0, best = 0;
        int at = 0;
        for (int t = 0; t <= n; t++) {
            acc += diff[t];
            if (acc > best) {
                best = acc;
                at = t;
            }
        }
        return at;
    }
}
