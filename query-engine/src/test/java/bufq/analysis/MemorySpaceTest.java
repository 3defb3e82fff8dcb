package bufq.analysis;

import bufq.analysis.category.Categories;
import bufq.analysis.category.CategoryRules;
import bufq.dump.DumpLoader;

import bufq.model.HloModule;
import bufq.model.MemorySpace;
import bufq.model.ProgramSizes;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.peak.Peak;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Memory spaces kept apart on real TPU dumps: colour 0 (HBM) by default, each other space on its own. */
class MemorySpaceTest {
    @Test
    void theReportNamesTheSpacesAndNoPeakRowAddsThem() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("tpu/tp-mlp"))).get(0);
        assertEquals("hbm", MemorySpace.name(m, 0));
        assertEquals("smem", MemorySpace.name(m, 2));
        assertEquals(OptionalInt.of(1), MemorySpace.byName(m, "vmem"));
        assertEquals(OptionalInt.of(0), MemorySpace.byName(m, "default"));
        assertTrue(MemorySpace.byName(m, "cmem2").isEmpty());
        Table peak = (Table) Peak.report(m, OptionalInt.empty(), 1 << 20, null).get(0);
        assertEquals(List.of(0, 1, 2, 6).size(), peak.size());
        for (int r = 0; r < peak.size(); r++) assertFalse("all".equals(peak.cell(r, 0)), "no row adds the spaces");
        Liveness l = Liveness.of(m);
        assertEquals(l.peakBytes(0), l.peakBytes());
        assertEquals(l.peakBytes(), peak.cell(0, peak.columnIndex("peak_bytes")));
    }

    @Test
    void offloadedValuesAreARowOfTheirOwnOutsideHbm() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("tpu/train-fsdp-offload"))).get(0);
        m.usedValues().read();
        assertEquals("host-offload", MemorySpace.name(m, MemorySpace.HOST_OFFLOAD));
        int t = Liveness.of(m).peakTime();
        Table b = (Table) Categories.blame(m, CategoryRules.NONE, t, "peak").get(0);
        long rows = 0, offloaded = -1;
        for (int r = 0; r < b.size(); r++) {
            if ("offloaded (host)".equals(b.cell(r, 0))) offloaded = (Long) b.cell(r, 1);
            else rows += (Long) b.cell(r, 1);
        }
        assertEquals(Liveness.of(m).peakBytes(), rows, "the categories add up to the HBM peak, the offload outside it");
        assertEquals(80L << 20, offloaded);   // five 16 MiB activations in S(5) at the HBM peak
        // memory_analysis's host_temp_size_in_bytes: 160 MiB of colour-5 temp, none of it in temp_bytes
        assertEquals(167_772_160L, ProgramSizes.ofSpace(m, MemorySpace.HOST_OFFLOAD).tempBytes());
        assertEquals(2_490_221_056L, ProgramSizes.of(m).tempBytes());
    }
}
