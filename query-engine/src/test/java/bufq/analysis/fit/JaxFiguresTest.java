package bufq.analysis.fit;

import bufq.units.Units;
import bufq.dump.DumpLoader;
import bufq.dump.file.MemoryAnalysisFile;
import bufq.analysis.liveness.Liveness;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.MemorySpace;
import bufq.model.ProgramSizes;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real XLA:TPU compiles held to JAX's own {@code memory_analysis()} ({@code memory_analysis.json}
 * beside each dump, per chip): arguments, outputs and aliases exactly from the HBM (colour 0)
 * allocations, the temp the dump's HBM temp with the rest of JAX's explained in a line, the peak of
 * occupied HBM bytes {@code peak_memory_in_bytes} within 20 KiB or said why; folders load quietly.
 */
class JaxFiguresTest {
    /** Every compile of the TPU corpus (and its checkout copy) that has a memory_analysis.json. */
    static List<Path> compiles(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.getFileName().toString().equals(MemoryAnalysisFile.NAME)).map(Path::getParent).sorted().toList();
        }
    }

    @Test
    void theCommittedTpuFixtureMatchesItsMemoryAnalysis() throws Exception {
        Path dir = Corpus.require("tpu/tp-mlp");
        HloModule m = check(dir);
        // its memory spaces, each apart: HBM, VMEM, SMEM and color 6
        assertEquals(List.of(0, 1, 2, 6), MemorySpace.colors(m));
        assertEquals("vmem", MemorySpace.name(m, 1));
        assertEquals(1_010_139_648L, ProgramSizes.of(m).tempBytes());   // HBM temp alone, not VMEM's 96.8 MiB beside it
    }

    @Test
    void everyTpuCompileMatchesItsMemoryAnalysis() throws Exception {
        List<Path> all = compiles(Corpus.require("tpu"));
        assertTrue(all.size() >= 19, "TPU compiles with a memory_analysis.json: " + all);
        List<String> vmemPeaks = new ArrayList<>();
        for (Path dir : all) {
            HloModule m = check(dir);
            ProgramSizes.Reported j = MemoryAnalysisFile.of(m).orElseThrow();
            String peak = JaxFigures.compare(m, j).lines().get(2);
            if (peak.contains("the peak of vmem")) vmemPeaks.add(dir.getFileName().toString());
        }
        // only the decode step's peak_memory_in_bytes adds its VMEM peak in (61 MiB)
        assertEquals(List.of("inference-kv"), vmemPeaks);
    }

    /** Holds one folder's module to its memory_analysis.json; returns the module. */
    static HloModule check(Path dir) throws Exception {
        List<String> skipped = new ArrayList<>();
        var sources = DumpLoader.discover(List.of(dir), skipped::add);
        assertEquals(List.of(), skipped, dir + ": a TPU folder loads quietly (meta.json, run.log, memory_analysis.json)");
        assertEquals(1, sources.size(), dir.toString());
        HloModule m = sources.get(0).load();
        ProgramSizes.Reported j = MemoryAnalysisFile.of(m).orElseThrow(() -> new AssertionError(dir + ": no memory_analysis.json read"));
        ProgramSizes z = ProgramSizes.of(m);
        assertEquals(j.argumentBytes(), z.argumentBytes(), dir + ": arguments");
        assertEquals(j.outputBytes(), z.outputBytes(), dir + ": outputs");
        assertEquals(j.aliasBytes(), z.aliasBytes(), dir + ": aliases");
        long hbmTemp = 0;
        for (BufferAllocation a : m.allocations()) if (a.color() == 0 && a.isTemp()) hbmTemp += a.size();
        assertEquals(hbmTemp, z.tempBytes(), dir + ": temp_bytes is the HBM temp");
        JaxFigures.Comparison c = JaxFigures.compare(m, j);
        assertTrue(c.heldExact(), dir.toString());
        String temp = c.lines().get(1);
        assertFalse(temp.contains("MISMATCH"), temp);
        if (j.tempBytes() != hbmTemp) {
            // the difference with its number, and what the dump shows of it
            assertTrue(temp.contains(Units.grouped(Math.abs(j.tempBytes() - hbmTemp), ' ') + " B"), temp);
            assertTrue(temp.contains(j.tempBytes() > hbmTemp ? "more" : "less"), temp);
        }
        // peak_memory_in_bytes is the peak of occupied HBM within 20 KiB, or 1 to 25 MiB above it, or that plus VMEM's peak
        long d = j.peakBytes() - Liveness.of(m).peakBytes();
        String peak = c.lines().get(2);
        assertTrue(Math.abs(d) <= JaxFigures.PEAK_TOLERANCE || d > 0 && d <= 64L << 20, dir + ": " + peak);
        assertTrue(peak.contains(Units.grouped(Math.abs(d), ' ') + " B") || peak.contains("equal within"), peak);
        // host offload: host_temp_size_in_bytes is the colour-5 temp, never in the HBM figures
        ProgramSizes host = ProgramSizes.ofSpace(m, MemorySpace.HOST_OFFLOAD);
        assertEquals(Math.max(j.hostTempBytes(), 0), host.tempBytes(), dir + ": host offload temp");
        return m;
    }

    @Test
    void aFileOfSeveralModulesIsReadByItsKeys() throws Exception {
        Path dir = Corpus.require("oom-cpu/pair");
        List<HloModule> ms = DumpLoader.load(List.of(dir.resolve("dump")));
        int read = 0;
        for (HloModule m : ms) {
            var j = MemoryAnalysisFile.of(m);
            if (j.isEmpty()) continue;
            read++;
            assertEquals(j.get().argumentBytes(), ProgramSizes.of(m).argumentBytes(), m.handle());
            assertTrue(JaxFigures.compare(m, j.get()).heldExact(), m.handle());
        }
        assertEquals(2, read, "the two programs memory_analysis.json names");
    }
}
