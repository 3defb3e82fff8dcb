package bufq.analysis;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analysis/clean.txt} is a small real-format dump that passes every check; each other fixture
 * changes one line of it so that exactly the check it is named after reports an error.
 */
class DoctoredFixturesTest {
    static HloModule load(String name) throws Exception {
        try (InputStream in = DoctoredFixturesTest.class.getResourceAsStream("/analysis/" + name + ".txt")) {
            if (in == null) throw new IOException("missing fixture analysis/" + name + ".txt");
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return DumpLoader.loadText("module_0000.jit_" + name.replace('-', '_')
                    + ".cpu_after_optimizations-buffer-assignment.txt", text);
        }
    }

    @Test
    void cleanFixtureHasNoErrorsOrWarnings() throws Exception {
        HloModule m = load("clean");
        CheckReport r = Analyses.check(m, TilingModel.TPU, List.of());
        assertFalse(r.hasErrors(), r.findings().toString());
        assertEquals(0, r.count(Severity.WARN), r.findings().toString());
        // Step 3 has the most live bytes only because add.4 takes exp.2's bytes there (a hand-over);
        // occupied bytes peak at step 4, the dump's label, so the label needs no note.
        assertEquals(4096, m.liveness().liveBytes(3));
        assertEquals(3072, m.liveness().occupiedBytes(3));
        assertEquals(4096, m.liveness().occupiedBytes(4));
        assertEquals(4, m.liveness().peakTime());
        assertEquals(List.of(), r.of("peak-claim"), r.findings().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"overlap", "outside-allocation", "padded-size", "orphan-live-range", "total-bytes", "peak-claim",
            "duplicate-id", "inverted-range"})
    void eachDoctoredFixtureTripsItsCheckOnly(String check) throws Exception {
        CheckReport r = Analyses.check(load(check), TilingModel.TPU, List.of());
        assertTrue(r.hasErrors(), check + ": " + r.findings());
        for (Finding f : r.findings()) {
            if (f.severity() == Severity.ERROR) assertEquals(check, f.check(), "unexpected error: " + f);
        }
        assertFalse(r.of(check).isEmpty());
    }

    /** Two outputs of one instruction, born at one step in the same bytes: not a hand-over, an error. */
    @Test
    void twoOutputsOfOneInstructionSharingBytesAreAnOverlap() throws Exception {
        CheckReport r = Analyses.check(load("overlap-outputs"), TilingModel.TPU, List.of());
        List<Finding> f = ChecksTest.errors(r, "overlap");
        assertEquals(1, f.size(), r.findings().toString());
        String text = f.get(0).subject() + " " + f.get(0).message();
        assertTrue(text.contains("exp.2{0}") && text.contains("exp.2{1}") && text.endsWith("at steps 1"), text);
        for (Finding x : r.findings()) if (x.severity() == Severity.ERROR) assertEquals("overlap", x.check(), x.toString());
    }

    @Test
    void overlapNamesBothValuesAndSteps() throws Exception {
        List<Finding> f = ChecksTest.errors(Analyses.check(load("overlap"), null, List.of()), "overlap");
        // neg.3 now at [512,1536) shares bytes with exp.2 (steps 2-3) and add.4 (steps 3-4).
        assertEquals(2, f.size(), f.toString());
        String first = f.get(0).subject() + " " + f.get(0).message(), second = f.get(1).subject() + " " + f.get(1).message();
        assertTrue(first.startsWith("neg.3 ") && first.contains("exp.2") && first.endsWith("at steps 2-3"), first);
        assertTrue(second.startsWith("add.4 ") && second.contains("neg.3") && second.endsWith("at steps 3-4"), second);
    }

    @Test
    void sharedIdsAndInvertedRangesAreWarnedAtLoadWithTheirLine() throws Exception {
        HloModule dup = load("duplicate-id");
        assertEquals(1, dup.warningCount(), dup.warnings().toString());
        String w = dup.warnings().get(0).toString();
        assertTrue(w.contains(":9:") && w.contains("value id 3 was already used at ") && w.endsWith(
                ":7; ids must be unique (lookups by id find the first)"), w);
        assertTrue(ChecksTest.errors(Analyses.check(dup, null, List.of()), "duplicate-id").get(0).message()
                .equals("value id 3 is shared by 2 values: add.4, mul.5"));
        HloModule inv = load("inverted-range");
        assertEquals(1, inv.warningCount(), inv.warnings().toString());
        assertTrue(inv.warnings().get(0).toString().contains(":56:") && inv.warnings().get(0).toString()
                .endsWith("live range 3-1 starts after it ends"), inv.warnings().toString());
    }

    @Test
    void everyAnalysisRunsOnTheFixtures() throws Exception {
        for (String n : List.of("clean", "overlap", "outside-allocation", "padded-size", "orphan-live-range",
                "total-bytes", "peak-claim", "duplicate-id", "inverted-range")) {
            CorpusSweepAnalysisTest.runAll(load(n));
        }
    }
}
