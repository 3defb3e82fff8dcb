package bufq.analysis;

import bufq.analysis.peak.Peak;
import bufq.analysis.check.CheckReport;
import bufq.analysis.check.CheckRule;
import bufq.analysis.check.Checks;
import bufq.analysis.check.Finding;
import bufq.analysis.check.Severity;
import bufq.model.HloModule;
import bufq.model.PeakClaim;
import bufq.model.TilingModel;
import bufq.table.Table;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each built-in check on a module doctored to have exactly its problem, and quiet on a clean one. */
class ChecksTest {
    static TestModules.Builder clean() {
        // b takes a's bytes at step 1 where a dies (a hand-over: ranges touch), c lives elsewhere.
        return new TestModules.Builder("clean").steps("a", "b", "c")
                .alloc(0, 1024, 0, "preallocated-temp")
                .value("a", 0, 0, 512, "f32[128]{0}", "0-1")
                .value("b", 0, 0, 512, "f32[128]{0}", "1-2")
                .value("c", 0, 512, 512, "f32[128]{0}", "0-3")
                .total(1024)
                .claim(1, true, new PeakClaim.Entry("a{}", 512, 512), new PeakClaim.Entry("b{}", 512, 1024),
                        new PeakClaim.Entry("c{}", 512, 1536));
    }

    static List<Finding> errors(CheckReport r, String check) {
        return r.of(check).stream().filter(f -> f.severity() == Severity.ERROR).toList();
    }

    @Test
    void cleanModuleHasNoFindings() {
        CheckReport r = Checks.check(clean().build(), TilingModel.TPU, List.of());
        // The only finding is the note that a -> b at step 1 is a hand-over, not an overlap.
        assertEquals(1, r.findings().size(), r.findings().toString());
        assertEquals(Severity.INFO, r.findings().get(0).severity());
        assertTrue(r.findings().get(0).message().startsWith("1 hand-over "), r.findings().get(0).message());
        assertFalse(r.hasErrors());
        assertEquals(8, r.rules().size());
    }

    @Test
    void overlapWhileBothLive() {
        HloModule m = clean().value("d", 0, 256, 512, "f32[128]{0}", "2-3").total(1024).build();
        List<Finding> f = errors(Checks.check(m, null, List.of()), "overlap");
        // d [256,768) live 2-3 meets b [0,512) live 1-2 only at step 2 where b ends: a touch, fine;
        // but c [512,1024) live 0-3 shares steps 2-3 with d.
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertEquals("d", f.get(0).subject());
        assertTrue(f.get(0).message().startsWith("bytes [256, 768) live 2-3 overlap c"), f.get(0).message());
    }

    @Test
    void outsideAllocation() {
        HloModule m = new TestModules.Builder("o").steps("a").alloc(0, 100, 0, "temp")
                .value("a", 0, 64, 64, "u8[64]", "0-1").value("z", 7, 0, 8, "u8[8]", "0-1").build();
        List<Finding> f = Checks.check(m, null, List.of()).of("outside-allocation");
        assertEquals(2, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("end past allocation 0 of 100 bytes"));
        assertTrue(f.get(1).message().contains("allocation 7"));
    }

    @Test
    void paddedSize() {
        HloModule m = new TestModules.Builder("p").steps("a").alloc(0, 8192, 0, "temp")
                .value("a", 0, 0, 4096, "f32[16,64]{1,0:T(8,128)}", "0-1")
                .value("b", 0, 0, 256, "f32[64]{0}", "0-1").build();
        List<Finding> f = Checks.check(m, TilingModel.TPU, List.of()).of("padded-size");
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("size 4096 but the tpu tiling rule gives 8192"), f.get(0).message());
        TilingModel doubling = new TilingModel() {
            @Override public String name() { return "double"; }
            @Override public long paddedBytes(bufq.model.Shape s) { return 2 * s.logicalBytes(); }
        };
        assertEquals(2, Checks.check(m, doubling, List.of()).of("padded-size").size());
        // An untiled layout must be its logical size on a TPU dump; on CPU the TPU rule says nothing.
        for (String backend : List.of("tpu", "cpu")) {
            HloModule u = new TestModules.Builder("u").steps("a").alloc(0, 512, 0, "temp").backend(backend)
                    .value("s", 0, 0, 512, "u32[]{:S(2)}", "0-1").build();
            assertEquals(backend.equals("tpu") ? 1 : 0, Checks.check(u, TilingModel.TPU, List.of()).of("padded-size").size(),
                    backend);
        }
    }

    @Test
    void totalBytes() {
        List<Finding> f = Checks.check(clean().total(2048).build(), null, List.of()).of("total-bytes");
        assertEquals(1, f.size());
        assertTrue(f.get(0).message().contains("sum to 1024 bytes but the dump says Total bytes used: 2048"));
    }

    @Test
    void peakClaim() {
        HloModule m = clean().claim(1, true, new PeakClaim.Entry("c{}", 512, 512), new PeakClaim.Entry("a{}", 512, 999))
                .build();
        List<Finding> f = Checks.check(m, null, List.of()).of("peak-claim");
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).message().contains("claims 999 bytes live at step 1"), f.get(0).message());
    }

    @Test
    void oldStylePeakListWeighsTupleElementsAsTheirInstruction() {
        // Old printers listed `name: N bytes` with N from the instruction's whole shape: the element
        // slice_reduce_fusion{0} (8 bytes) was listed as 32, the size of the 4-tuple's table. The
        // allocation section lists that table as the value t{} (here without a live range), whose
        // shape is the instruction's: bufq weighs elements by it without reading the Used values.
        HloModule m = new TestModules.Builder("old").steps("a", "t").alloc(0, 64, 0, "temp")
                .value("a", 0, 0, 16, "u32[4]", "0-2").value("t{0}", 0, 16, 8, "u32[2]", "1-2")
                .value("t{}", 0, 32, 32, "(u32[2], u32[2], u32[2], u32[2])", null)
                .instruction("t", "(u32[2], u32[2], u32[2], u32[2])", "fusion", null, null, -1)
                .claim(1, false, new PeakClaim.Entry("a", 16, 0), new PeakClaim.Entry("t", 32, 0)).build();
        CheckReport r = Checks.check(m, null, List.of());
        assertEquals(List.of(), r.of("peak-claim").stream().filter(f -> f.severity() != Severity.INFO).toList());
        HloModule wrong = new TestModules.Builder("old").steps("a", "t").alloc(0, 64, 0, "temp")
                .value("a", 0, 0, 16, "u32[4]", "0-2").value("t{0}", 0, 16, 8, "u32[2]", "1-2")
                .value("t{}", 0, 32, 32, "(u32[2], u32[2], u32[2], u32[2])", null)
                .instruction("t", "(u32[2], u32[2], u32[2], u32[2])", "fusion", null, null, -1)
                .claim(1, false, new PeakClaim.Entry("a", 16, 0), new PeakClaim.Entry("t", 8, 0)).build();
        List<Finding> f = Checks.check(wrong, null, List.of()).of("peak-claim");
        assertTrue(f.stream().anyMatch(x -> x.severity() == Severity.WARN && x.message().contains("sum to 24 bytes")
                && x.message().contains("weigh 48")), f.toString());
        String notes = String.join(" ", ((Table) Peak.report(m, java.util.OptionalInt.empty(), 0, null).get(0)).notes());
        assertTrue(notes.contains("bufq gets the same sum that way, and 24 bytes with the values' own shapes"), notes);
    }

    @Test
    void failingRuleBecomesAFindingAndExtraRulesRun() {
        CheckRule boom = new Checks.Rule("boom", (m, r) -> { throw new IllegalStateException("bad script"); });
        CheckRule note = new Checks.Rule("note", (m, r) -> r.warn("x", "looks odd"));
        CheckReport r = Checks.check(clean().build(), null, List.of(boom, note));
        assertTrue(r.hasErrors());
        assertEquals("check failed: bad script", r.of("boom").get(0).message());
        assertEquals(Severity.WARN, r.of("note").get(0).severity());
        Table t = r.table();
        assertEquals(3, t.size());   // the hand-over note, the failure, the warning
        assertEquals("warn", t.cell(2, 1));
        assertTrue(t.notes().get(0).startsWith("10 checks"), t.notes().toString());
    }
}
