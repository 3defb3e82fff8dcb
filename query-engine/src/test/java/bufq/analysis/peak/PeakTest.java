package bufq.analysis.peak;

import bufq.analysis.blame.Blame;
import bufq.analysis.peak.Peak;
import bufq.analysis.blame.BlameBy;
import bufq.analysis.peak.ClaimedPeak;
import bufq.units.Units;
import bufq.analysis.timeline.Timeline;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.MemorySpace;
import bufq.analysis.liveness.Liveness;
import bufq.model.TilingModel;
import bufq.table.NaturalOrder;
import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;
import bufq.testing.Corpus;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeakTest {
    /**
     * cnn's label (step 149) holds 4 bytes less than its peak (step 150): both round to 146.1MiB, so
     * the note says by how much the peak is more instead of naming one figure twice.
     */
    @Test
    void aNoteWhoseTwoFiguresRoundAlikeSaysTheDifference() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/cnn"))).get(0);
        Liveness l = Liveness.of(m);
        long more = l.peakBytes() - l.occupiedBytes(l.claimedPeakTime());
        assertTrue(more > 0 && more < 1024, "cnn's label is a few bytes under its peak: " + more);
        String note = ClaimedPeak.note(m);
        assertTrue(note.contains("holds 146.1MiB, " + more + " bytes more: "), note);
    }

    @Test
    void firstMaximumDiffersFromClaimAndTheQuirkExplainsIt() {
        HloModule m = TestModules.unstack();
        Liveness l = Liveness.of(m);
        // Step 1: Arg (32) + tuple table (32) + four u32[2] (8 each) = 96 logical; step 6 holds 96 too.
        assertEquals(96, l.liveBytes(1));
        assertEquals(96, l.liveBytes(6));
        assertEquals(6, ClaimedPeak.xlaMoment(m));
        assertEquals(6, l.claimedPeakTime());
        // Occupied bytes are the dump's size= (TPU padding included), each byte once: 1024 + 4*512 + 32 at step 1.
        assertEquals(1, l.peakTime());
        assertEquals(1024 + 4 * 512 + 32, l.peakBytes());
    }

    @Test
    void summaryPutsClaimBesideRecomputationWithANote() {
        HloModule m = TestModules.unstack();
        List<Output> out = Peak.report(m, OptionalInt.empty(), 0, TilingModel.TPU);
        Table s = (Table) out.get(0);
        assertEquals("all", s.cell(0, 0));
        assertEquals(1L, s.cell(0, s.columnIndex("peak_time")));
        assertEquals(3104L, s.cell(0, s.columnIndex("peak_bytes")));
        assertEquals(96L, s.cell(0, s.columnIndex("live_bytes")));
        assertEquals(6L, s.cell(0, s.columnIndex("claimed_peak_time")));
        assertEquals(96L, s.cell(0, s.columnIndex("claimed_peak_bytes")));
        String notes = String.join("\n", s.notes());
        assertTrue(notes.contains("equal the live bytes bufq sums there"), notes);
        assertTrue(notes.contains("the dump labels step 6 its peak; it holds as many occupied bytes"), notes);
    }

    @Test
    void liveValuesSortedBySizeWithShareAndPaddingAndSmallFold() {
        HloModule m = TestModules.unstack();
        Table t = (Table) Peak.report(m, OptionalInt.empty(), 16, null).get(1);
        // Arg_0.1 (32) and the tuple table slice_reduce_fusion{} (32) lead; four 8-byte values fold.
        assertEquals(3, t.size());
        assertEquals("Arg_0.1", t.cell(0, 0));
        assertEquals(32L, t.cell(0, t.columnIndex("logical")));
        assertEquals(1024L - 32, t.cell(0, t.columnIndex("padding")));
        assertEquals(32.0 / 96, (Double) t.cell(0, t.columnIndex("share")), 1e-9);
        assertEquals("x", t.cell(0, t.columnIndex("op_name")));
        assertEquals("slice_reduce_fusion{}", t.cell(1, 0));
        assertEquals("/tmp/u.py:12", t.cell(1, t.columnIndex("source")));
        assertEquals("small (4 values)", t.cell(2, 0));
        assertEquals(32L, t.cell(2, t.columnIndex("logical")));
        assertEquals(2048L, t.cell(2, t.columnIndex("assigned")));
    }

    @Test
    void perColorRowsAndColorFilter() {
        HloModule m = new TestModules.Builder("two").steps("a", "b", "c")
                .alloc(0, 4096, 0, "temp").alloc(1, 1024, 1, "temp")
                .value("a", 0, 0, 400, "f32[100]", "0-1")
                .value("b", 0, 400, 800, "f32[200]", "1-2")
                .value("c", 1, 0, 1024, "f32[256]", "2-3", 1)
                .build();
        Table s = (Table) Peak.report(m, OptionalInt.empty(), 0, null).get(0);
        // one row per memory space, the device memory (color 0) first; no row adds them (b + c would be 1824)
        assertEquals(2, s.size());
        assertEquals(List.of("0", "1"), List.of(s.cell(0, 0), s.cell(1, 0)));
        assertEquals(List.of(MemorySpace.name(m, 0), MemorySpace.name(m, 1)), List.of(s.cell(0, 1), s.cell(1, 1)));
        assertEquals(1200L, s.cell(0, s.columnIndex("peak_bytes")));   // step 1: a + b
        assertEquals(1L, s.cell(0, s.columnIndex("peak_time")));
        assertEquals(1024L, s.cell(1, s.columnIndex("peak_bytes")));   // step 2: c
        Table live = (Table) Peak.report(m, OptionalInt.of(1), 0, null).get(1);
        assertEquals(1, live.size());
        assertEquals("c", live.cell(0, 0));
    }

    @Test
    void timelineTableCarriesTheNumbersPerStepAndColor() {
        HloModule m = new TestModules.Builder("two").steps("a", "b", "c")
                .alloc(0, 4096, 0, "temp").alloc(1, 1024, 1, "temp")
                .value("a", 0, 0, 512, "f32[100]", "0-1")
                .value("c", 1, 0, 1024, "f32[256]", "2-3", 1)
                .build();
        Table t = Timeline.table(m, OptionalInt.empty());
        assertEquals(List.of("step", "instruction", "occupied_bytes", "live_bytes", "color_0", "color_1"),
                t.columns().stream().map(bufq.table.Column::name).toList());
        assertEquals(4, t.size());
        // occupied_bytes and live_bytes are the device memory's (color 0); each colour's beside them
        assertEquals(List.of(0L, "a", 512L, 400L, 512L, 0L), t.rows().get(0));
        assertEquals(List.of(2L, "c", 0L, 0L, 0L, 1024L), t.rows().get(2));
        assertEquals(List.of("peak: step 0 (512B occupied)"), t.notes());
        assertEquals(4, Timeline.table(m, OptionalInt.of(1)).width());
    }

    @Test
    void noScheduleSaysWhy() {
        HloModule m = new TestModules.Builder("bare").alloc(0, 16, 0, "temp").value("a", 0, 0, 16, "f32[4]", null).build();
        List<Output> out = Peak.report(m, OptionalInt.empty(), 0, null);
        assertEquals(1, out.size());
        String text = ((TextBlock) out.get(0)).text();
        assertTrue(text.startsWith("no live ranges in this dump, so no peak"), text);
        assertTrue(text.length() > 80 && text.contains("--xla_dump_buffer_assignment_analysis"), text);
        assertEquals(out, Blame.atPeak(m, BlameBy.OP_NAME, 0));
    }

    @Test
    void identicalValuesShareOneRowWithACountAndNamesSortNaturally() {
        TestModules.Builder b = new TestModules.Builder("loop").steps("a", "b").alloc(0, 1 << 20, 0, "temp");
        // Twelve copies of one op_name and shape, listed in the dump's text order (.1, .10, .11, .12, .2, ...).
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= 12; i++) names.add("copy." + i);
        names.sort(null);
        long off = 0;
        for (String n : names) {
            b.value(n, 0, off, 400, "f32[100]", "0-1").instruction(n, "f32[100]", "copy", "jit(f)/while/body", null, 0);
            off += 400;
        }
        b.value("copy.13", 0, off, 400, "f32[100]", "0-1").instruction("copy.13", "f32[100]", "copy", "jit(f)/other", null, 0);
        b.value("big.3", 0, off + 400, 800, "f32[200]", "0-1");
        b.value("big.20", 0, off + 1200, 800, "f32[200]", "0-1");
        Table t = (Table) Peak.report(b.build(), OptionalInt.empty(), 0, null).get(1);
        // The twelve copies first (4800 bytes in all), then the two values without an op_name, then copy.13.
        assertEquals(3, t.size(), t.toString());
        assertEquals("copy.1 .. copy.12", t.cell(0, 0));
        assertEquals(12L, t.cell(0, t.columnIndex("count")));
        assertEquals(4800L, t.cell(0, t.columnIndex("logical")));
        assertEquals("big.3 .. big.20", t.cell(1, 0));
        assertEquals(2L, t.cell(1, t.columnIndex("count")));
        assertEquals("copy.13", t.cell(2, 0));
        assertEquals(1L, t.cell(2, t.columnIndex("count")));
    }

    @Test
    void naturalOrderReadsDigitRunsAsNumbers() {
        List<String> names = new ArrayList<>(List.of("copy.100", "copy.10", "copy.2", "copy.1", "b", "a.9"));
        names.sort(NaturalOrder.INSTANCE);
        assertEquals(List.of("a.9", "b", "copy.1", "copy.2", "copy.10", "copy.100"), names);
    }

    /** A colour whose values have no live range (thread-local only) has no peak, not "step 0, 0B". */
    @Test
    void aColourWithNothingLiveHasNoPeak() throws Exception {
        HloModule m = bufq.dump.DumpLoader.load(List.of(bufq.testing.Corpus.requireFile("public",
                "tcp-hlo_module_0001.jit_convert_element_type-buffer-assignment.txt"))).get(0);
        assertTrue(Liveness.of(m).colors().contains(1), Liveness.of(m).colors().toString());
        assertEquals(-1, Liveness.of(m).peakTime(1));
        assertTrue(Liveness.of(m).peakTime() >= 0);
        List<Output> peak = Peak.report(m, OptionalInt.of(1), 0, TilingModel.TPU);
        assertEquals("no value of color 1 has a live range, so color 1 has no peak\n", ((TextBlock) peak.get(0)).text());
        Table all = (Table) Peak.report(m, OptionalInt.empty(), 0, TilingModel.TPU).get(0);
        for (int r = 0; r < all.size(); r++) {
            if (all.cell(r, 0).equals("1")) assertEquals(null, all.cell(r, all.columnIndex("peak_time")));
        }
        Table peaks = Peak.peaks(m, OptionalInt.of(1), 0.2);
        assertEquals(0, peaks.size());
        assertTrue(peaks.notes().contains("no value of color 1 has a live range, so color 1 has no peak"), peaks.notes().toString());
        assertEquals("no value of color 1 has a live range, so color 1 has no peak\n",
                ((TextBlock) Timeline.chart(m, OptionalInt.of(1), 80).get(0)).text());
        assertTrue(Timeline.svg(m, OptionalInt.of(1)).contains(">no value of color 1 has a live range, so color 1 has no peak<"));
    }

    /** On TPU the rebuilt stack tree weighs logical sizes under a table of occupied bytes: it says which. */
    @Test
    void theStackTreeSaysWhenItsMeasureIsNotTheTables() throws Exception {
        HloModule m = bufq.dump.DumpLoader.load(List.of(java.nio.file.Path.of("../examples/seeds/004_0cb419b3147a3cb6.txt"))).get(0);
        List<Output> blame = Blame.atPeak(m, BlameBy.OP_NAME, 0);
        String tree = ((TextBlock) blame.get(1)).text();
        long occupied = Liveness.of(m).peakBytes(), logical = Liveness.of(m).liveBytesAllSpaces(Liveness.of(m).peakTime());
        assertTrue(occupied != logical);
        assertTrue(tree.startsWith("stack trace breakdown, rebuilt from the model at peak step " + Liveness.of(m).peakTime()
                + " (the dump printed none); like XLA's it sums logical sizes, " + Units.grouped(logical, ' ')
                + " bytes, where the table counts the " + Units.grouped(occupied, ' ') + " bytes occupied:\n"), tree);
        assertTrue(tree.contains("Stack trace breakdown for peak usage: " + Units.grouped(logical, ' ') + " bytes"), tree);
    }
}
