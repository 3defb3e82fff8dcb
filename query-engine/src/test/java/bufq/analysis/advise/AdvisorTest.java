package bufq.analysis.advise;

import bufq.analysis.whatif.ShortestCondition;
import bufq.analysis.whatif.ReadableEdits;
import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import bufq.analysis.whatif.EditParser;
import bufq.analysis.whatif.Outcome;
import bufq.analysis.whatif.RecomputeAccess;
import bufq.analysis.whatif.EditSweep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** {@code advise} on real dumps: findings exist where the issue expects them, and every saving is recomputed. */
class AdvisorTest {
    static Path root() { return Path.of(System.getProperty("bufq.root", ".")); }

    /** Modules and a rule each must report. */
    static final List<String[]> EXPECTED = List.of(
            new String[] {"jax-0.10.2/transformer-2layer", "activations"},
            new String[] {"jax-0.10.2/rnn-scan", "activations"},
            new String[] {"jax-0.10.2/bf16-mlp", "donation"},
            new String[] {"public/patrick-toulme_justabyte__tpp-ref_hlo_module_0031.jit_reference_attention-buffer-assignment.txt", "big-buffer"},
            new String[] {"seeds:004_0cb419b3147a3cb6.txt", "padding"});

    static HloModule load(String rel) throws Exception {
        Path p = rel.startsWith("seeds:") ? root().resolve("examples/seeds").resolve(rel.substring(6)) : Corpus.require(rel);
        return DumpLoader.load(List.of(p)).get(0);
    }

    @TestFactory
    Stream<DynamicTest> findingsAreMeasuredByWhatif() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] e : EXPECTED) tests.add(DynamicTest.dynamicTest(e[0], () -> check(load(e[0]), e[1])));
        return tests.stream();
    }

    static void check(HloModule m, String rule) throws Exception {
        List<Advisor.Measured> found = Advisor.run(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null);
        assertTrue(found.stream().anyMatch(x -> x.advice().rule().equals(rule)), m.handle() + " should report " + rule + ": " + found);
        checkRanking(m, found);
        for (Advisor.Measured x : found) {
            Advice a = x.advice();
            assertFalse(a.finding().isBlank());
            if (!a.measured()) {
                long total = 0;
                for (BufferAllocation al : m.allocations()) total += al.size();
                assertEquals(total - Liveness.of(m).peakBytes(), x.saves(), a.finding());
                continue;
            }
            // The saving is the peak the advice's own whatif line lowers, recomputed step by step.
            var edits = EditParser.parse(a.editText(), Set.copyOf(Catalog.standard().entities())).edits();
            long expected = Liveness.of(m).peakBytes() - max(RecomputeAccess.occupancy(m, edits));
            assertEquals(expected, x.saves(), a.editText());
            Outcome o = EditSweep.run(m, edits, Catalog.standard(), TilingModel.TPU, n -> null);
            assertEquals(o.saved(), x.saves());
            assertFalse(a.values().isEmpty(), "evidence for " + a.finding());
        }
        checkReport(m, found);
    }

    /**
     * Findings that lower the peak come first, largest saving first, none below the minimum; no idle
     * finding rematerialises an entry parameter or a constant; the packing loss comes after them.
     */
    static void checkRanking(HloModule m, List<Advisor.Measured> found) {
        long last = Long.MAX_VALUE, floor = Advisor.minimumSaving(Liveness.of(m).peakBytes());
        boolean beyond = false;
        for (Advisor.Measured x : found) {
            if (!x.lowersPeak()) {
                beyond = true;
                assertTrue(x.saves() > 0, x.toString());
                continue;
            }
            assertFalse(beyond, "peak savings rank before the packing loss: " + found);
            assertTrue(x.saves() >= floor && x.saves() <= last, "ranked by saving, none under " + floor + ": " + found);
            assertTrue(x.saves() <= Liveness.of(m).peakBytes(), x.toString());
            last = x.saves();
            if (x.advice().rule().equals("donation"))
                assertTrue(x.advice().finding().matches("(1 parameter is|\\d+ parameters are) not donated but can alias an output .*donate_argnums=\\(.*"),
                        x.advice().finding());
            if (x.advice().rule().equals("idle")) {
                for (var v : x.advice().values()) {
                    BufferAllocation a = m.allocation(v.allocation());
                    assertFalse(a != null && (a.isParameter() || a.constant()), "no remat of an input: " + x);
                }
            }
        }
    }

    /**
     * The report: every peak saving in the ranked list with peak_share at most 100% and a whatif line
     * that, run as it is printed, gives that saving; the packing loss a note under it, not a row.
     */
    static void checkReport(HloModule m, List<Advisor.Measured> found) throws Exception {
        // printed as advise prints it: each selection written as a condition
        List<Output> report = AdviceList.of(m, new Advisor.Plan(found, List.of()), null,
                new ReadableEdits(m, Catalog.standard(), TilingModel.TPU)).report();
        Table ranked = (Table) report.get(0);
        long lowering = found.stream().filter(Advisor.Measured::lowersPeak).count();
        assertTrue(ranked.size() <= lowering && (lowering == 0) == (ranked.size() == 0), m.handle());
        int saves = ranked.columnIndex("whatif_saves"), share = ranked.columnIndex("peak_share"), line = ranked.columnIndex("whatif");
        for (int r = 0; r < ranked.size(); r++) {
            String text = (String) ranked.cell(r, line);
            assertTrue(text.startsWith("whatif "), text);
            assertTrue(longestIdList(text) <= ShortestCondition.FEW, m.handle() + ": a condition people read, not a list of ids: " + text);
            var edits = EditParser.parse(text.substring("whatif ".length()), Set.copyOf(Catalog.standard().entities())).edits();
            Outcome o = EditSweep.run(m, edits, Catalog.standard(), TilingModel.TPU, n -> null);
            assertEquals(((Number) ranked.cell(r, saves)).longValue(), o.saved(), m.handle() + ": the printed line reproduces the saving: " + text);
            assertTrue(((Number) ranked.cell(r, share)).doubleValue() <= 1.0, m.handle() + ": " + text);
        }
        if (lowering < found.size())
            assertTrue(ranked.notes().stream().anyMatch(n -> n.startsWith("beyond the peak, not a change: fragmentation: ")), ranked.notes().toString());
        assertEquals("evidence", ((Table) report.get(report.size() - 1)).title());
    }

    /** The most ids one {@code id in (...)} or {@code id not in (...)} of {@code text} lists. */
    static int longestIdList(String text) {
        int most = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\bid (?:not )?in \\(([^)]*)\\)").matcher(text);
        while (m.find()) most = Math.max(most, m.group(1).split(",").length);
        return most;
    }

    static long max(long[] a) {
        long best = 0;
        for (long x : a) best = Math.max(best, x);
        return best;
    }
}
