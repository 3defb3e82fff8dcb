package bufq.analysis.diff;

import bufq.analysis.diff.DiffResult.GroupChange;
import bufq.analysis.diff.DiffResult.SummaryRow;
import bufq.analysis.diff.DiffResult.Unmatched;
import bufq.analysis.diff.DiffResult.Where;
import bufq.model.HloModule;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Matching rules on tiny hand-built modules. */
class ModuleDiffTest {
    private static final String MUL = "jit(f)/mul";
    private static final String ADD = "jit(f)/add";

    /** A small training-step-like program; {@code suffix} renames every instruction. */
    private static TestModules.Tiny program(String handle, String suffix) {
        return new TestModules.Tiny(handle, 10)
                .value("p0" + suffix, "f32[16,16]", "parameter", 0, 10, "parameter", null, null, -1)
                .temp("fusion" + suffix, "f32[16,16]", 2, 6, MUL)
                .temp("fusion.1" + suffix, "f32[16,32]", 3, 5, ADD)
                .value("out" + suffix, "f32[16,16]", "output", 7, 10, "fusion", MUL, "f.py", 9);
    }

    private static SummaryRow row(DiffResult r, String measure) {
        return r.summary().stream().filter(s -> s.measure().equals(measure)).findFirst().orElseThrow();
    }

    @Test
    void renamedInstructionsStillMatch() {
        DiffResult r = ModuleDiff.compare(program("a", "").build(), program("b", ".7").build());
        assertTrue(r.identical(), () -> r.toString());
        assertTrue(r.unmatched().isEmpty());
        assertTrue(r.byOpName().isEmpty());
        assertEquals(0, r.peakChange());
    }

    @Test
    void extraTempIsOnlyAfterAndChangesItsOpName() {
        HloModule before = program("a", "").build();
        HloModule after = program("b", "").temp("fusion.2", "f32[16,32]", 4, 4, ADD).build();
        DiffResult r = ModuleDiff.compare(before, after);
        assertFalse(r.identical());
        assertEquals(1, r.unmatched().size());
        Unmatched u = r.unmatched().get(0);
        assertEquals(Where.AFTER, u.where());
        assertEquals(new MatchKey(ADD, "(none)", "f32[16,32]", ValueRole.TEMP), u.key());
        assertEquals(List.of("fusion.2"), u.names());
        assertEquals(2048, u.bytes());
        // Peak of "before" is step 3..5 (p0 + fusion + fusion.1 = 1024+1024+2048); after adds 2048 at step 4.
        assertEquals(4096, r.peakBefore().recomputed());
        assertEquals(6144, r.peakAfter().recomputed());
        assertEquals(2048, r.peakChange());
        assertEquals(List.of(new GroupChange(ADD, 2048, 4096, 1, 2)), r.byOpName());
        // No source on p0, the fusions and the new temp: all under (none); out has f.py:9 and is unchanged.
        assertEquals(List.of(new GroupChange("(none)", 4096, 6144, 3, 4)), r.bySource());
    }

    @Test
    void shapeChangeLeavesOneOnEachSide() {
        HloModule before = program("a", "").build();
        HloModule after = new TestModules.Tiny("b", 10)
                .value("p0", "f32[16,16]", "parameter", 0, 10, "parameter", null, null, -1)
                .temp("fusion", "f32[16,16]", 2, 6, MUL)
                .temp("fusion.1", "f32[32,32]", 3, 5, ADD)
                .value("out", "f32[16,16]", "output", 7, 10, "fusion", MUL, "f.py", 9).build();
        DiffResult r = ModuleDiff.compare(before, after);
        assertEquals(2, r.unmatched().size());
        // Largest first: the 4 KiB value after, then the 2 KiB one before.
        assertEquals(Where.AFTER, r.unmatched().get(0).where());
        assertEquals("f32[32,32]", r.unmatched().get(0).key().shape());
        assertEquals(Where.BEFORE, r.unmatched().get(1).where());
        assertEquals("f32[16,32]", r.unmatched().get(1).key().shape());
    }

    @Test
    void layoutIsPartOfTheShape() {
        HloModule before = new TestModules.Tiny("a", 4).temp("t", "f32[8,8]{1,0}", 0, 4, MUL).build();
        HloModule after = new TestModules.Tiny("b", 4).temp("t", "f32[8,8]{0,1}", 0, 4, MUL).build();
        DiffResult r = ModuleDiff.compare(before, after);
        assertEquals(2, r.unmatched().size());
        assertTrue(r.byOpName().isEmpty(), "same bytes per op_name");
    }

    @Test
    void sourceLineAndRoleAreMatchKeys() {
        HloModule before = new TestModules.Tiny("a", 4)
                .value("t", "f32[8]", "temp", 0, 2, "fusion", MUL, "f.py", 1)
                .value("u", "f32[8]", "temp", 0, 2, "fusion", MUL, "f.py", 1).build();
        HloModule after = new TestModules.Tiny("b", 4)
                .value("t", "f32[8]", "temp", 0, 2, "fusion", MUL, "f.py", 2)      // moved line
                .value("u", "f32[8]", "temp", 0, 4, "fusion", MUL, "f.py", 1).build(); // now live out: output
        DiffResult r = ModuleDiff.compare(before, after);
        // Both "before" values share one key (one row, count 2); neither "after" value has it.
        assertEquals(3, r.unmatched().size());
        assertTrue(r.unmatched().stream().anyMatch(u -> u.where() == Where.BEFORE && u.count() == 2));
        assertTrue(r.unmatched().stream().anyMatch(u -> u.key().role() == ValueRole.OUTPUT && u.where() == Where.AFTER));
        assertTrue(r.unmatched().stream().anyMatch(u -> u.key().source().equals("f.py:2")));
    }

    @Test
    void multisetPairsInScheduleOrderAndCountsLeftovers() {
        TestModules.Tiny b = new TestModules.Tiny("a", 20);
        for (int i = 0; i < 3; i++) b.temp("layer" + i, "f32[64]", 5 * i, 5 * i + 1, MUL);
        HloModule after = new TestModules.Tiny("b", 20).temp("x", "f32[64]", 0, 1, MUL).build();
        DiffResult r = ModuleDiff.compare(b.build(), after);
        assertEquals(1, r.unmatched().size());
        Unmatched u = r.unmatched().get(0);
        assertEquals(Where.BEFORE, u.where());
        assertEquals(2, u.count());
        assertEquals(512, u.bytes());
        assertEquals(List.of("layer1", "layer2"), u.names());
    }

    @Test
    void donatedParameterBufferHoldsTempsAndOutputs() {
        TestModules.Tiny t = new TestModules.Tiny("a", 10);
        int donated = t.allocation(1024, 0, 0, false, false, false, true);
        t.valueIn(donated, "w", "f32[256]", 0, 0, 3, "parameter", null, null, -1)
                .valueIn(donated, "act", "f32[256]", 0, 4, 6, "fusion", MUL, null, -1)
                .valueIn(donated, "w_new", "f32[256]", 0, 7, 10, "fusion", "jit(f)/sub", null, -1)
                .valueIn(donated, "no_details", "f32[256]", 0, -1, -1, null, null, null, -1);
        HloModule m = t.build();
        assertEquals(ValueRole.PARAMETER, ValueRole.of(m, m.values().get(0)));
        assertEquals(ValueRole.TEMP, ValueRole.of(m, m.values().get(1)));
        assertEquals(ValueRole.OUTPUT, ValueRole.of(m, m.values().get(2)));
        assertEquals(ValueRole.PARAMETER, ValueRole.of(m, m.values().get(3)), "no details: the allocation decides");
    }

    @Test
    void opNameFallsBackToOpcodeThenNone() {
        HloModule m = new TestModules.Tiny("a", 4)
                .value("c", "f32[2]", "constant", 0, 4, "constant", null, null, -1)
                .value("bare", "f32[2]", "temp", 0, 1, null, null, null, -1)
                .temp("f", "f32[2]", 0, 1, MUL).build();
        assertEquals("(constant)", Side.opGroup(m, m.values().get(0)));
        assertEquals("(none)", Side.opGroup(m, m.values().get(1)));
        assertEquals(MUL, Side.opGroup(m, m.values().get(2)));
        assertEquals(ValueRole.CONSTANT, ValueRole.of(m, m.values().get(0)));
    }

    @Test
    void peakChangeIsOccupiedBytesAndTheLabelsAreShownBeside() {
        HloModule before = program("a", "").claim(3, 5000).build();
        HloModule after = program("b", "").claim(3, 5100).build();
        DiffResult r = ModuleDiff.compare(before, after);
        assertEquals(0, r.peakChange());
        assertEquals(100L, row(r, "claimed peak (dump's label)").change());
        assertEquals(0L, row(r, "peak, occupied").change());
        assertFalse(r.identical(), "the claims differ");
        DiffResult half = ModuleDiff.compare(before, program("b", "").build());
        assertEquals(0, half.peakChange());
        assertNull(row(half, "claimed peak (dump's label)").change());
    }

    @Test
    void summaryCountsAllocationsByKindAndColour() {
        TestModules.Tiny t = program("a", "");
        int hbm1 = t.allocation(4096, 1, -1, false, false, false, false);
        t.valueIn(hbm1, "v1", "f32[1024]", 1, 3, 4, "fusion", MUL, null, -1);
        DiffResult r = ModuleDiff.compare(program("b", "").build(), t.build());
        assertEquals(1024L, row(r, "parameters, allocated").before());
        assertEquals(1024L, row(r, "outputs, allocated").before());
        assertEquals(3072L, row(r, "temps, allocated").before());
        assertEquals(7168L, row(r, "temps, allocated").after());
        assertEquals(0L, row(r, "peak, occupied, colour 1").before());
        assertEquals(4096L, row(r, "peak, occupied, colour 1").after());
        assertEquals(4096L, row(r, "allocated, colour 1").change());
        assertEquals(5120L, row(r, "allocated, total").before());
        assertEquals(4096.0 / 5120, row(r, "allocated, total").changeFraction(), 1e-12);
    }

    @Test
    void atPeakLimitsEveryPartToValuesLiveAtPeak() {
        HloModule before = program("a", "").build();
        HloModule after = program("b", "").temp("early", "f32[512]", 0, 1, MUL).build();  // dead at peak (3)
        assertEquals(1, ModuleDiff.compare(before, after).unmatched().size());
        DiffResult r = ModuleDiff.compare(before, after, DiffOptions.DEFAULT.withAtPeak(true));
        assertTrue(r.unmatched().isEmpty(), () -> r.unmatched().toString());
        assertTrue(r.byOpName().isEmpty());
        assertEquals(1024L, row(r, "parameters, live at peak").before());
        assertEquals(3072L, row(r, "temps, live at peak").after());
    }

    @Test
    void outputsAreSixTablesAndHonourTheLimit() {
        TestModules.Tiny b = new TestModules.Tiny("b", 20);
        for (int i = 0; i < 5; i++) b.temp("t" + i, "f32[" + (i + 1) + "]", i, 20, "op" + i);
        DiffResult r = ModuleDiff.compare(new TestModules.Tiny("a", 20).build(), b.build(), new DiffOptions(false, 2));
        List<Output> out = DiffTables.render(r);
        assertEquals(6, out.size());
        Table byCategory = (Table) out.get(1);
        assertEquals("outputs", byCategory.cell(0, 0), "the five temps live to the last step: live out, each byte once");
        assertEquals(4L * (1 + 2 + 3 + 4 + 5), byCategory.cell(0, 2));
        Table byOp = (Table) out.get(2);
        assertEquals(2, byOp.size());
        assertEquals("op4", byOp.cell(0, 0), "largest change first");
        assertTrue(byOp.notes().stream().anyMatch(n -> n.startsWith("3 more rows")));
        Table only = (Table) out.get(4);
        assertEquals("only after", only.cell(0, 0));
        assertEquals(List.of("t4"), only.cell(0, 7));
        Table summary = (Table) out.get(0);
        assertEquals(summary.size(), r.summary().size());
    }

    @Test
    void withoutLiveRangesThePeakIsUnknownNotZero() {
        HloModule noRanges = new TestModules.Tiny("a", -1).value("t", "f32[8]", "temp", -1, -1, "fusion", MUL, null, -1).build();
        DiffResult r = ModuleDiff.compare(noRanges, program("b", "").build());
        assertFalse(r.peakKnown());
        assertEquals(0, r.peakChange());
        assertNull(row(r, "peak, occupied").before());
        assertTrue(((Table) DiffTables.render(r).get(0)).notes().contains("peak change unknown: before has no live ranges"));
    }

    @Test
    void leftoversThatDifferOnlyInOpNameContextAreLikelyRenamed() {
        HloModule before = new TestModules.Tiny("a", 10)
                .temp("g", "f32[64]", 1, 2, "jit(f)/transpose(jvp())/dot_general")
                .temp("h", "f32[64]", 1, 2, "jit(f)/jvp()/tanh")
                .temp("k", "f32[32]", 1, 2, "jit(f)/jvp()/exp").build();
        HloModule after = new TestModules.Tiny("b", 10)
                .temp("g2", "f32[64]", 1, 2, "jit(f)/transpose(jvp(jvp()))/checkpoint/dot_general")
                .temp("h2", "f32[64]", 1, 2, "jit(f)/jvp()/sin")        // other primitive
                .temp("k2", "f32[16]", 1, 2, "jit(f)/checkpoint/exp")   // other shape
                .build();
        DiffResult r = ModuleDiff.compare(before, after);
        assertEquals(6, r.unmatched().size(), "hints never remove rows");
        assertEquals(1, r.renamed().size());
        assertEquals("jit(f)/transpose(jvp())/dot_general", r.renamed().get(0).before().key().opGroup());
        assertEquals("jit(f)/transpose(jvp(jvp()))/checkpoint/dot_general", r.renamed().get(0).after().key().opGroup());
        Table t = (Table) DiffTables.render(r).get(5);
        assertEquals(1, t.size());
        assertEquals(256L, t.cell(0, 0));
    }

    @Test
    void theClosestOpNameWinsAmongRenameCandidates() {
        HloModule before = new TestModules.Tiny("a", 10).temp("t", "f32[64]", 1, 2, "jit(f)/transpose(jvp())/transpose").build();
        HloModule after = new TestModules.Tiny("b", 10)
                .temp("far", "f32[128]", 1, 2, "jit(f)/transpose(jvp(jvp()))/checkpoint/rematted/bhqk->bqhd/transpose")
                .temp("near", "f32[64]", 1, 2, "jit(f)/transpose(jvp(jvp()))/checkpoint/transpose")
                .temp("far2", "f32[64]", 1, 2, "jit(f)/transpose(jvp(jvp()))/checkpoint/rematted/bhqk->bqhd/transpose")
                .build();
        DiffResult r = ModuleDiff.compare(before, after);
        assertEquals(1, r.renamed().size());
        assertEquals(List.of("near"), r.renamed().get(0).after().names());
        assertEquals(3, bufq.lang.NearNames.editDistance("kitten", "sitting"));
        assertEquals(0, bufq.lang.NearNames.editDistance("", ""));
    }

    @Test
    void withoutSourceMetadataTheSourcePartIsEmptyAndSaysWhy() {
        HloModule before = new TestModules.Tiny("a", 4).temp("t", "f32[8]", 0, 4, MUL).build();
        HloModule after = new TestModules.Tiny("b", 4).temp("t", "f32[16]", 0, 4, MUL).build();
        DiffResult r = ModuleDiff.compare(before, after);
        assertFalse(r.hasSources());
        assertTrue(r.bySource().isEmpty());
        assertEquals(1, r.byOpName().size(), "the op_name part still shows the change");
        Table t = (Table) DiffTables.render(r).get(3);
        assertEquals(0, t.size());
        assertEquals(List.of("neither dump carries source_file/source_line metadata"), t.notes());
        assertFalse(r.identical());
    }
}
