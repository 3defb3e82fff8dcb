package bufq.analysis.category;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.liveness.OccupiedShares;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code gathered weights} row of {@code blame by category} at the colour-0 peak equals the bytes
 * of all-gathered parameters live there, found apart from the classifier: on every sharded compile of
 * the TPU corpus, {@link GatherTrace} follows each live value back through the HLO (all-gathers, XLA:TPU's
 * collective fusions and the all-gathers in their bodies, copies) to an entry parameter named
 * {@code params...}; the bytes are the values' shares of the occupied bytes, each byte once.
 */
class GatheredWeightsCorpusTest {
    @TestFactory
    Stream<DynamicTest> everyShardedCompile() throws IOException {
        Path root = Corpus.requireSome("tpu");
        List<Path> dumps;
        try (Stream<Path> s = Files.walk(root)) {
            dumps = s.filter(p -> p.getFileName().toString().equals("dump") && Files.isDirectory(p)).sorted().toList();
        }
        assertTrue(!dumps.isEmpty(), "sharded compiles under " + root);
        return dumps.stream().map(d -> DynamicTest.dynamicTest(root.relativize(d).toString(), () -> check(d)));
    }

    @Test
    void theReplicatedEmbeddingHoldsItsGatheredEmbeddingAndAnActivationIsNoWeight() throws Exception {
        assertEquals(1048576000L, check(Corpus.require("tpu/oom/replicated-embedding/dump")), "the bf16 [2048,256000] all-gather");
        // a matmul's output shaped like a gathered weight, computed while the collective is in flight
        assertEquals(0L, check(Corpus.require("tpu/series-seq/seq-4096/dump")));
    }

    /** Holds the row to the trace; returns the bytes. */
    static long check(Path dump) throws Exception {
        HloModule m = DumpLoader.load(List.of(dump)).get(0);
        GatherTrace trace = new GatherTrace(file(dump, "after_optimizations.txt"), file(dump, "-buffer-assignment-values.txt"));
        int t = Liveness.of(m).peakTime();
        List<HloValue> live = LiveValues.inDevice(m, t);
        long[] shares = OccupiedShares.of(live);
        long expected = 0;
        TreeSet<String> traced = new TreeSet<>();
        for (int i = 0; i < live.size(); i++) {
            HloValue v = live.get(i);
            GatherTrace.Source s = trace.of(v.name(), GatherTrace.index(v.index()));
            if (!s.gathered() || !s.parameter().attrs().contains("op_name=\"params")) continue;
            expected += shares[i];
            traced.add(v.label());
        }
        Table table = (Table) Categories.blame(m, CategoryRules.NONE, t, "peak").get(0);
        long row = -1;
        for (int r = 0; r < table.size(); r++) if (Categories.GATHERED_WEIGHTS.equals(table.cell(r, 0))) row = (Long) table.cell(r, 1);
        Categories c = Categories.of(m);
        TreeSet<String> classified = new TreeSet<>();
        for (int p : LiveValues.positions(m, t, t)) {
            HloValue v = m.values().get(p);
            if (v.color() == 0 && Categories.GATHERED_WEIGHTS.equals(c.name(p))) classified.add(v.label());
        }
        assertEquals(expected, row, dump + " (" + (trace.fromText() ? "HLO text" : "values file") + ") at step " + t
                + ": traced " + traced + ", classified " + classified);
        return expected;
    }

    /** The dump's file whose name ends in {@code suffix} (or {@code suffix.gz}), or null. */
    private static Path file(Path dump, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dump)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix) || p.getFileName().toString().endsWith(suffix + ".gz"))
                    .findFirst().orElse(null);
        }
    }
}
