package bufq.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import bufq.dump.DumpLoader;
import bufq.eval.ModuleRow;
import bufq.testing.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code modules.total_bytes} summed a memory-usage report's rounded sizes (2,022,168,213
 * where the report states 2,026,823,886; 0 for a report proto alone, which lists no allocation by
 * index) while {@code summary} showed the stated total. One definition, held to each dump's own
 * {@code Total bytes used}.
 */
class TotalBytesTest {
    @TempDir Path dir;

    /** The dump's own "Total bytes used: 2026823886 (1.89GiB)". */
    private static long statedTotal(Path dump) throws Exception {
        for (String line : Files.readAllLines(dump))
            if (line.startsWith("Total bytes used: ")) return Long.parseLong(line.replaceAll("^Total bytes used: (\\d+).*", "$1"));
        throw new AssertionError("no Total bytes used in " + dump);
    }

    @Test
    void aTextReportGivesItsStatedTotal() throws Exception {
        Path report = Corpus.requireFile("public", "sharded_v2__module_0037.jit__full_run.sm_8.0_gpu-memory-usage-report.txt");
        HloModule m = DumpLoader.load(List.of(report)).get(0);
        assertEquals(2_026_823_886L, statedTotal(report));
        assertEquals(statedTotal(report), ProgramSizes.totalBytes(m));
        assertEquals(ProgramSizes.totalBytes(m), ModuleRow.of(m, false).totalBytes(), "modules and summary agree");
    }

    @Test
    void aReportProtoAloneGivesItsTotal() throws Exception {
        Path pb = Corpus.requireFile("jax-0.10.2-proto/cnn", "-memory-usage-report.pb");
        Path text = Corpus.requireFile("jax-0.10.2/cnn", "-buffer-assignment-values.txt");
        Path alone = Files.copy(pb, dir.resolve(pb.getFileName()));
        HloModule m = DumpLoader.load(List.of(alone)).get(0);
        assertEquals(0, m.allocations().size(), "a report proto lists no allocation by index");
        long oracle = statedTotal(text);
        assertEquals(153_220_480L, oracle);
        assertEquals(oracle, ProgramSizes.totalBytes(m), "the text dump's Total bytes used");
        assertEquals(oracle, ModuleRow.of(m, false).totalBytes());
    }

    @Test
    void aBufferAssignmentSumsItsExactSizes() throws Exception {
        Path text = Corpus.requireFile("public", "sharded_v3__module_0037.jit__full_run.sm_8.0_gpu-buffer-assignment.txt");
        HloModule m = DumpLoader.load(List.of(text)).get(0);
        assertEquals(846_605_582L, ProgramSizes.totalBytes(m));
        assertEquals(m.totalBytes(), ProgramSizes.totalBytes(m));
    }
}
