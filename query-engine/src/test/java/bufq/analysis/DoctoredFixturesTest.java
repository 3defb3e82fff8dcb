package bufq.analysis;

import bufq.eval.Step;
import bufq.analysis.peak.Peak;
import bufq.units.Units;
import bufq.analysis.why.WhyReport;
import bufq.analysis.why.Why;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.check.Checks;
import bufq.analysis.check.CheckReport;
import bufq.analysis.check.Finding;
import bufq.analysis.check.Severity;
import bufq.analysis.liveness.LiveValues;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.analysis.advise.Advisor;
import bufq.analysis.advise.Rules;
import bufq.eval.Catalog;
import bufq.export.PprofExport;
import bufq.export.ProfileStacks;
import bufq.export.TraceExport;
import bufq.model.HloValue;
import bufq.analysis.liveness.Liveness;
import bufq.model.TilingModel;
import bufq.table.Table;
import bufq.table.TextBlock;
import bufq.analysis.whatif.EditParser;
import bufq.analysis.whatif.Outcome;
import bufq.analysis.whatif.EditSweep;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

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
        CheckReport r = Checks.check(m, TilingModel.TPU, List.of());
        assertFalse(r.hasErrors(), r.findings().toString());
        assertEquals(0, r.count(Severity.WARN), r.findings().toString());
        // Step 3 has the most live bytes only because add.4 takes exp.2's bytes there (a hand-over);
        // occupied bytes peak at step 4, the dump's label, so the label needs no note.
        assertEquals(4096, Liveness.of(m).liveBytes(3));
        assertEquals(3072, Liveness.of(m).occupiedBytes(3));
        assertEquals(4096, Liveness.of(m).occupiedBytes(4));
        assertEquals(4, Liveness.of(m).peakTime());
        assertEquals(List.of(), r.of("peak-claim"), r.findings().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"overlap", "outside-allocation", "padded-size", "orphan-live-range", "total-bytes", "peak-claim",
            "duplicate-id", "inverted-range"})
    void eachDoctoredFixtureTripsItsCheckOnly(String check) throws Exception {
        CheckReport r = Checks.check(load(check), TilingModel.TPU, List.of());
        assertTrue(r.hasErrors(), check + ": " + r.findings());
        for (Finding f : r.findings()) {
            if (f.severity() == Severity.ERROR) assertEquals(check, f.check(), "unexpected error: " + f);
        }
        assertFalse(r.of(check).isEmpty());
    }

    /** Two outputs of one instruction, born at one step in the same bytes: not a hand-over, an error. */
    @Test
    void twoOutputsOfOneInstructionSharingBytesAreAnOverlap() throws Exception {
        CheckReport r = Checks.check(load("overlap-outputs"), TilingModel.TPU, List.of());
        List<Finding> f = ChecksTest.errors(r, "overlap");
        assertEquals(1, f.size(), r.findings().toString());
        String text = f.get(0).subject() + " " + f.get(0).message();
        assertTrue(text.contains("exp.2{0}") && text.contains("exp.2{1}") && text.endsWith("at steps 1"), text);
        for (Finding x : r.findings()) if (x.severity() == Severity.ERROR) assertEquals("overlap", x.check(), x.toString());
    }

    @Test
    void overlapNamesBothValuesAndSteps() throws Exception {
        List<Finding> f = ChecksTest.errors(Checks.check(load("overlap"), null, List.of()), "overlap");
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
        assertTrue(ChecksTest.errors(Checks.check(dup, null, List.of()), "duplicate-id").get(0).message()
                .equals("value id 3 is shared by 2 values: add.4, mul.5"));
        HloModule inv = load("inverted-range");
        assertEquals(1, inv.warningCount(), inv.warnings().toString());
        assertTrue(inv.warnings().get(0).toString().contains(":56:") && inv.warnings().get(0).toString()
                .endsWith("live range 3-1 starts after it ends"), inv.warnings().toString());
    }

    /**
     * Every analysis on every fixture (broken ones included) answers, and says what the module's one
     * liveness says: the same peak step and bytes, the occupancy an independent merge computes, the
     * value's own range, savings no larger than the peak, an export of exactly the peak's values.
     */
    @Test
    void everyAnalysisRunsOnTheFixtures() throws Exception {
        for (String n : List.of("clean", "overlap", "outside-allocation", "padded-size", "orphan-live-range",
                "total-bytes", "peak-claim", "duplicate-id", "inverted-range", "overlap-outputs")) {
            HloModule m = load(n);
            // peak, per-colour peak, timeline and its pictures, maps, padding, fragmentation, blame: each
            // answers and prints in every format; pictures parse.
            CorpusSweepAnalysisTest.runAll(m);
            Liveness l = Liveness.of(m);
            int peak = l.peakTime();
            assertTrue(peak >= 0, n + " has live ranges");
            long peakBytes = l.peakBytes();
            assertEquals(peakBytes, OccupancyOracle.occupied(m, null)[peak], n);

            Table pk = (Table) Peak.report(m, OptionalInt.empty(), 0, TilingModel.NONE).get(0);
            assertEquals((long) peak, cell(pk, 0, "peak_time"), n);
            assertEquals(peakBytes, cell(pk, 0, "peak_bytes"), n);

            Table peaks = Peak.peaks(m, OptionalInt.empty(), 0.2);
            assertEquals(peakBytes, cell(peaks, 0, "bytes"), n);
            assertTrue((long) cell(peaks, 0, "step") <= peak && peak <= (long) cell(peaks, 0, "to"), n + ": " + peaks.rows());

            Table steps = Timeline.table(m, OptionalInt.empty());
            long[] oracle = OccupancyOracle.occupied(m, null);
            assertEquals(m.steps(), steps.size(), n);
            for (int t = 0; t < steps.size(); t++) assertEquals(oracle[t], cell(steps, t, "occupied_bytes"), n + " step " + t);
            assertTrue(steps.notes().contains("peak: step " + peak + " (" + Units.human(peakBytes) + " occupied)"), n + ": " + steps.notes());

            // A text dump has no heap-simulator trace: the event timeline says so rather than drawing nothing.
            String events = ((TextBlock) Timeline.events(m, 80).get(0)).text();
            assertTrue(events.startsWith("no heap-simulator trace in this module"), n + ": " + events);

            List<WhyReport> whys = Why.of(m, m.values());
            for (int i = 0; i < whys.size(); i++) {
                WhyReport w = whys.get(i);
                HloValue v = m.values().get(i);
                assertEquals(v.label(), cell(w.what(), 0, "value"), n);
                if (v.hasRange()) assertEquals((long) v.rangeStart(), cell(w.born(), 0, "live_from"), n + " " + v.name());
                assertEquals((long) peak, cell(w.peak(), 0, "peak"), n + " " + v.name());
            }

            CheckReport check = Checks.check(m, TilingModel.TPU, List.of());
            String own = n.equals("overlap-outputs") ? "overlap" : n;
            for (Finding f : check.findings()) {
                if (f.severity() == Severity.ERROR) assertEquals(own, f.check(), n + ": unexpected error " + f);
            }
            assertEquals(n.equals("clean"), !check.hasErrors(), n + ": " + check.findings());

            // whatif: dropping what is live at the peak saves at most the peak, and says the same before-peak.
            Outcome o = EditSweep.run(m, EditParser.parse("drop where live at peak", Set.copyOf(Catalog.standard().entities())).edits(),
                    Catalog.standard(), TilingModel.NONE, name -> null);
            assertEquals(peakBytes, o.before().peakBytes(), n);
            assertTrue(o.saved() > 0 && o.saved() <= peakBytes, n + ": saved " + o.saved());

            for (Advisor.Measured a : Advisor.run(m, Rules.standard(), Catalog.standard(), TilingModel.NONE, name -> null)) {
                assertTrue(a.saves() > 0 && a.saves() <= peakBytes, n + ": " + a);
            }

            PprofExport.Summary pprof = PprofExport.write(m, Step.resolve(m, "peak"), "peak", ProfileStacks.parse("stack"),
                    new ByteArrayOutputStream());
            assertEquals(LiveValues.at(m, peak).size(), pprof.samples(), n);
            assertEquals(peakBytes, pprof.bytes(), n);

            StringWriter trace = new StringWriter();
            TraceExport.Summary t = TraceExport.write(m, trace);
            assertTrue(t.slices() > 0 && t.counterEvents() > 0, n + ": " + t);
            assertTrue(trace.toString().contains("\"peak_step\":" + peak), n);
        }
    }

    private static Object cell(Table t, int row, String column) {
        int c = t.columnIndex(column);
        assertTrue(c >= 0, "no column " + column + " in " + t.title());
        return t.cell(row, c);
    }
}
