package bufq.eval;

import bufq.analysis.blame.Blame;
import bufq.analysis.peak.Peak;
import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.dump.file.LoadException;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code modules} entity's kind comes from what was read, whatever the file is called, gzipped or not. */
class ProtoKindsTest {
    static final String HLO = "cnn/module_0000.jit_step.cpu_after_optimizations.hlo.pb";

    static Path gzipped(Path from, Path to) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(to))) {
            Files.copy(from, out);
        }
        return to;
    }

    static List<String> kinds(Path p) throws Exception {
        return ModuleRow.of(DumpLoader.load(List.of(p))).stream().map(ModuleRow::kind).distinct().toList();
    }

    @Test
    void gzippedProtosKeepTheirKind(@TempDir Path dir) throws Exception {
        Path xplane = gzipped(ProtoQueriesTest.corpus("profile/profile.xplane.pb"), dir.resolve("profile.xplane.pb.gz"));
        List<HloModule> profile = DumpLoader.load(List.of(xplane));
        assertEquals(7, profile.size());
        assertEquals(List.of("profile"), kinds(xplane));
        assertEquals(List.of("hlo-proto"), kinds(gzipped(ProtoQueriesTest.corpus(HLO), dir.resolve("m.hlo.pb.gz"))));
        assertEquals(List.of("assignment-proto"),
                kinds(gzipped(ProtoQueriesTest.corpus("cnn/ma-buffer-assignment.pb"), dir.resolve("ma.pb.gz"))));
    }

    @Test
    void aProtoUnderAnotherNameIsReadByItsContent(@TempDir Path dir) throws Exception {
        Path mystery = Files.copy(ProtoQueriesTest.corpus(HLO), dir.resolve("mystery.bin"));
        HloModule m = DumpLoader.load(List.of(mystery)).get(0);
        HloModule named = DumpLoader.load(List.of(ProtoQueriesTest.corpus(HLO))).get(0);
        assertEquals(named.values().size(), m.values().size());
        assertEquals(Liveness.of(named).peakBytes(), Liveness.of(m).peakBytes());
        assertEquals(List.of("hlo-proto"), kinds(mystery));
        assertEquals(List.of("profile"), kinds(Files.copy(ProtoQueriesTest.corpus("profile/profile.xplane.pb"), dir.resolve("capture"))));
        assertEquals(List.of("assignment-proto"),
                kinds(gzipped(ProtoQueriesTest.corpus("cnn/ma-buffer-assignment.pb"), dir.resolve("noext.gz"))));
    }

    @Test
    void aBareAssignmentIsNamedAfterItsDirectoryAndItsPeakSaysWhyThereIsNone() throws Exception {
        HloModule m = DumpLoader.load(List.of(ProtoQueriesTest.corpus("rnn-scan/ma-buffer-assignment.pb"))).get(0);
        assertEquals("rnn-scan", m.info().name());
        String peak = Peak.report(m, java.util.OptionalInt.empty(), 0, null).toString()
                + Blame.atPeak(m, bufq.analysis.blame.BlameBy.OP_NAME, 1);
        assertTrue(peak.contains("bare BufferAssignmentProto") && !peak.contains("xla_dump_buffer_assignment_analysis"), peak);
    }

    @Test
    void aMemoryUsageReportProtoNamedOpensItsModulesHloPb() throws Exception {
        Path report = ProtoQueriesTest.corpus("cnn/module_0000.jit_step.cpu_after_optimizations-memory-usage-report.pb");
        List<HloModule> ms = DumpLoader.load(List.of(report));
        assertEquals(1, ms.size());
        assertEquals("hlo-proto", ms.get(0).info().format());
        assertEquals(List.of(report.resolveSibling("module_0000.jit_step.cpu_after_optimizations.hlo.pb").toString(),
                report.toString()), ms.get(0).info().files());
    }

    @Test
    void randomBinaryIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        byte[] noise = new byte[5000];
        new Random(21).nextBytes(noise);
        noise[7] = 0;   // a NUL byte: binary whatever the rest is
        for (String name : List.of("noise.bin", "noise.pb", "noise.hlo.pb")) {
            Path p = Files.write(dir.resolve(name), noise);
            LoadException e = assertThrows(LoadException.class, () -> DumpLoader.load(List.of(p)));
            String msg = e.getMessage();
            assertTrue(msg.contains(name) && !msg.contains("\n") && !msg.contains("Exception"), msg);
        }
        Path gz = gzipped(Files.write(dir.resolve("noise.raw"), noise), dir.resolve("noise.bin.gz"));
        LoadException e = assertThrows(LoadException.class, () -> DumpLoader.load(List.of(gz)));
        assertTrue(e.getMessage().contains("noise.bin.gz"), e.getMessage());
    }
}
