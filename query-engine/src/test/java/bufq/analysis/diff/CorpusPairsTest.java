package bufq.analysis.diff;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.diff.DiffResult.SummaryRow;
import bufq.analysis.diff.DiffResult.Unmatched;
import bufq.analysis.diff.DiffResult.Where;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Diffs of real pairs from the corpus's {@code jax-0.10.2}; skipped when the corpus is absent. */
class CorpusPairsTest {
    private static final Path JAX = Corpus.dir().resolve("jax-0.10.2");
    private static final Pattern CUMULATIVE = Pattern.compile("\\(cumulative: (\\d+) bytes\\)");

    private static Path dir(String rel) {
        return Corpus.require(JAX.resolve(rel));
    }

    private static HloModule load(String rel) throws Exception {
        List<HloModule> ms = DumpLoader.load(List.of(dir(rel)));
        assertEquals(1, ms.size(), rel);
        return ms.get(0);
    }

    /** The dump's own peak figure, read straight from the text: the last cumulative number. */
    private static long claimedPeak(String rel) throws IOException {
        try (Stream<Path> files = Files.list(dir(rel))) {
            Path lr = files.filter(p -> p.getFileName().toString().endsWith("-live-range.txt")).findFirst().orElseThrow();
            Matcher m = CUMULATIVE.matcher(Files.readString(lr));
            long last = -1;
            while (m.find()) last = Long.parseLong(m.group(1));
            assertTrue(last > 0, "no cumulative figure in " + lr);
            return last;
        }
    }

    private static SummaryRow row(DiffResult r, String measure) {
        return r.summary().stream().filter(s -> s.measure().equals(measure)).findFirst().orElseThrow();
    }

    private static long totalLogical(List<HloValue> values) {
        return values.stream().mapToLong(HloValue::logicalSize).sum();
    }

    private static long onlyBytes(DiffResult r, Where w) {
        return r.unmatched().stream().filter(u -> u.where() == w).mapToLong(Unmatched::bytes).sum();
    }

    /** Every part must add up: groups partition the peak, unmatched values explain the byte totals. */
    private static void assertConsistent(DiffResult r, HloModule before, HloModule after) {
        // Groups weigh values by logical size: they add up to the change of live bytes at the peaks.
        long peakDelta = Liveness.of(after).liveBytes(Liveness.of(after).peakTime())
                - Liveness.of(before).liveBytes(Liveness.of(before).peakTime());
        assertEquals(peakDelta, r.byOpName().stream().mapToLong(DiffResult.GroupChange::change).sum(), "op_name groups");
        if (r.hasSources()) assertEquals(peakDelta, r.bySource().stream().mapToLong(DiffResult.GroupChange::change).sum(), "source groups");
        else assertTrue(r.bySource().isEmpty());
        List<HloValue> vb = r.options().atPeak() ? LiveValues.at(before, Liveness.of(before).peakTime()) : before.values();
        List<HloValue> va = r.options().atPeak() ? LiveValues.at(after, Liveness.of(after).peakTime()) : after.values();
        assertEquals(totalLogical(va) - totalLogical(vb), onlyBytes(r, Where.AFTER) - onlyBytes(r, Where.BEFORE),
                "matched values have equal sizes, so the leftovers explain the difference");
    }

    @Test
    void sameProgramCompiledTwiceIsIdentical() throws Exception {
        HloModule a = load("pairs/transformer-4layer"), b = load("pairs/transformer-4layer-again");
        for (DiffOptions o : List.of(DiffOptions.DEFAULT, DiffOptions.DEFAULT.withAtPeak(true))) {
            DiffResult r = ModuleDiff.compare(a, b, o);
            assertTrue(r.identical(), () -> r.toString());
            assertTrue(r.byOpName().isEmpty() && r.bySource().isEmpty() && r.unmatched().isEmpty() && r.renamed().isEmpty());
            assertEquals(0, r.peakChange());
            for (SummaryRow s : r.summary()) assertEquals(0L, s.change(), s.measure());
            List<Output> parts = DiffTables.render(r);
            // The same categories hold the same bytes on both sides; every other part is empty.
            Table byCategory = (Table) parts.get(1);
            assertTrue(byCategory.size() > 0);
            for (int row = 0; row < byCategory.size(); row++) assertEquals(0L, byCategory.cell(row, 3), (String) byCategory.cell(row, 0));
            for (Output out : parts.subList(2, parts.size())) assertEquals(0, ((Table) out).size(), ((Table) out).title());
        }
    }

    @Test
    void rematerialisationPeakChangeIsTheChangeOfOccupiedBytes() throws Exception {
        HloModule plain = load("pairs/transformer-4layer"), remat = load("pairs/transformer-4layer-remat");
        long claimed = claimedPeak("pairs/transformer-4layer-remat") - claimedPeak("pairs/transformer-4layer");
        DiffResult r = ModuleDiff.compare(plain, remat);
        long occupied = Liveness.of(remat).peakBytes() - Liveness.of(plain).peakBytes();
        assertEquals(occupied, r.peakChange());
        assertEquals(occupied, row(r, "peak, occupied").change());
        assertEquals(claimed, row(r, "claimed peak (dump's label)").change());
        // The dumps' labels say remat saved 3 MiB; the bytes held say it cost 4 MiB, as the temp
        // allocation grew by 5 MiB: the labels pick steps that leave out live values.
        assertEquals(-3L << 20, claimed);
        assertEquals(4L << 20, occupied);
        assertFalse(r.identical());
        assertFalse(r.hasSources(), "jaxlib 0.10 prints stack_frame_id, not source_file");
        assertConsistent(r, plain, remat);
        // jax.checkpoint names its recomputed ops: they can only exist after.
        assertTrue(r.unmatched().stream().anyMatch(u -> u.where() == Where.AFTER
                && u.key().opGroup().contains("rematted_computation")), "rematerialised values show as new");
        assertTrue(r.unmatched().stream().noneMatch(u -> u.where() == Where.BEFORE
                && u.key().opGroup().contains("rematted_computation")));
        // The checkpointed backward pass keeps its primitives under a new op_name context.
        assertTrue(r.renamed().stream().anyMatch(p -> p.before().key().opGroup().equals("jit(step)/transpose(jvp())/dot_general")
                && p.after().key().opGroup().equals("jit(step)/transpose(jvp(jvp()))/checkpoint/dot_general")), r.renamed()::toString);
        DiffResult peak = ModuleDiff.compare(plain, remat, DiffOptions.DEFAULT.withAtPeak(true));
        assertEquals(occupied, peak.peakChange());
        assertConsistent(peak, plain, remat);
    }

    @Test
    void twoSizesOfOneProgram() throws Exception {
        HloModule small = load("transformer-2layer"), big = load("transformer-12layer");
        DiffResult r = ModuleDiff.compare(small, big);
        assertEquals(Liveness.of(big).peakBytes() - Liveness.of(small).peakBytes(), r.peakChange());
        assertConsistent(r, small, big);
        // Parameters are named per layer (ps[5]['w1']): layers 2..11 have no partner, 6 weights each.
        long newParams = r.unmatched().stream().filter(u -> u.key().role() == ValueRole.PARAMETER)
                .peek(u -> assertEquals(Where.AFTER, u.where(), u.toString())).mapToLong(Unmatched::count).sum();
        assertEquals(60, newParams);
        assertTrue(row(r, "allocated, total").change() > 0);
        assertTrue(r.byOpName().get(0).change() > 0, "the biggest op_name change is growth");
        DiffResult back = ModuleDiff.compare(big, small);
        assertEquals(-r.peakChange(), back.peakChange());
        assertEquals(r.unmatched().size(), back.unmatched().size());
    }
}
