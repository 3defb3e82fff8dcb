package bufq.dump.proto;

import bufq.dump.DumpLoader;
import bufq.dump.file.LoadException;
import bufq.model.HloModule;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code -memory-usage-report.pb} is read: as the report part of the {@code .hlo.pb} beside it (the
 * totals of each memory space, as the text set's {@code -memory-usage-report.txt} gives them), and
 * named alone, as its text report alone is.
 */
class ReportProtoTest {
    private static final String REPORT_PB = "-memory-usage-report.pb", REPORT_TXT = "-memory-usage-report.txt";

    static List<Path> reports() throws IOException {
        List<Path> out;
        try (Stream<Path> s = Files.walk(Corpus.requireSome("jax-0.10.2-proto"))) {
            out = s.filter(p -> p.getFileName().toString().endsWith(REPORT_PB)).sorted().toList();
        }
        assertFalse(out.isEmpty(), "memory usage report protos in the corpus");
        return out;
    }

    private static Path sibling(Path report, String suffix) {
        String n = report.getFileName().toString();
        return report.resolveSibling(n.substring(0, n.length() - REPORT_PB.length()) + suffix);
    }

    @TestFactory
    Stream<DynamicTest> theHloPbGetsItsReportsTotalsAsTheTextSetDoes() throws IOException {
        return reports().stream().map(r -> DynamicTest.dynamicTest(r.getFileName().toString(), () -> {
            HloModule text = DumpLoader.load(List.of(sibling(r, "-buffer-assignment.txt"))).get(0);
            HloModule proto = DumpLoader.load(List.of(sibling(r, ".hlo.pb"))).get(0);
            assertFalse(text.info().colorTotals().isEmpty());
            assertEquals(text.info().colorTotals(), proto.info().colorTotals());
            assertEquals(r.toString(), proto.info().files().get(1));
            // Named itself, the report is read with its module.
            HloModule named = DumpLoader.load(List.of(r)).get(0);
            assertEquals(proto.values().size(), named.values().size());
            assertEquals(proto.info().colorTotals(), named.info().colorTotals());
        }));
    }

    @TestFactory
    Stream<DynamicTest> aloneItGivesWhatItsTextReportAloneGives(@TempDir Path tmp) throws IOException {
        return reports().stream().map(r -> DynamicTest.dynamicTest(r.getFileName().toString(), () -> {
            Path dir = Files.createTempDirectory(tmp, "report");
            Path pb = Files.copy(r, Files.createDirectories(dir.resolve("pb")).resolve(r.getFileName()));
            Path txtDir = Files.createDirectories(dir.resolve("txt"));
            Path txt = Files.copy(sibling(r, REPORT_TXT), txtDir.resolve(sibling(r, REPORT_TXT).getFileName()));
            HloModule fromText = DumpLoader.load(List.of(txt)).get(0);
            HloModule fromProto = DumpLoader.load(List.of(pb)).get(0);
            assertEquals(fromText.info().colorTotals(), fromProto.info().colorTotals());
            assertEquals(fromText.allocations(), fromProto.allocations());
            assertEquals(fromText.values().size(), fromProto.values().size());
            assertEquals(HloModule.Info.REPORT_PROTO, fromProto.info().format());
            // In a directory walk too.
            assertEquals(fromText.info().colorTotals(), DumpLoader.load(List.of(pb.getParent())).get(0).info().colorTotals());
        }));
    }

    @Test
    void aCutReportIsSkippedWithItsByteOffset(@TempDir Path tmp) throws IOException, LoadException {
        Path r = reports().get(0);
        byte[] bytes = Files.readAllBytes(r);
        Files.copy(sibling(r, ".hlo.pb"), tmp.resolve(sibling(r, ".hlo.pb").getFileName()));
        Path cut = Files.write(tmp.resolve(r.getFileName()), Arrays.copyOf(bytes, bytes.length / 2));
        // As a bad text report beside its buffer-assignment file: the module loads, the report is a warning.
        HloModule m = DumpLoader.load(List.of(tmp.resolve(sibling(r, ".hlo.pb").getFileName()))).get(0);
        String w = m.warnings().get(0).toString();
        assertTrue(w.contains(cut.getFileName().toString()), w);
        assertTrue(w.contains("byte "), w);
        assertTrue(w.contains("MemoryUsageReportProto"), w);
        assertTrue(w.contains("file skipped"), w);
        assertTrue(m.info().colorTotals().isEmpty());
    }
}
