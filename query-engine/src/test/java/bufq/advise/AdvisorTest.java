package bufq.advise;

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
import bufq.whatif.EditParser;
import bufq.whatif.Outcome;
import bufq.whatif.RecomputeAccess;
import bufq.whatif.WhatIf;
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
        long last = Long.MAX_VALUE;
        for (Advisor.Measured x : found) {
            assertTrue(x.saves() > 0 && x.saves() <= last, "ranked by saving, none zero: " + found);
            last = x.saves();
            Advice a = x.advice();
            assertFalse(a.finding().isBlank());
            if (a.edit() == null) {
                long total = 0;
                for (BufferAllocation al : m.allocations()) total += al.size();
                assertEquals(total - m.liveness().peakBytes(), x.saves(), a.finding());
                continue;
            }
            // The saving is the peak the advice's own whatif line lowers, recomputed step by step.
            var edits = EditParser.parse(a.edit(), Set.copyOf(Catalog.standard().entities())).edits();
            long expected = m.liveness().peakBytes() - max(RecomputeAccess.occupancy(m, edits));
            assertEquals(expected, x.saves(), a.edit());
            Outcome o = WhatIf.run(m, edits, Catalog.standard(), TilingModel.TPU, n -> null);
            assertEquals(o.saved(), x.saves());
            assertFalse(a.values().isEmpty(), "evidence for " + a.finding());
        }
        List<Output> report = Advisor.report(m, found);
        assertEquals(found.size(), ((Table) report.get(0)).size());
    }

    static long max(long[] a) {
        long best = 0;
        for (long x : a) best = Math.max(best, x);
        return best;
    }
}
