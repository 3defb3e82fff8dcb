package bufq.dump.proto;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.LoadWarning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bad {@code -memory-usage-report.pb} beside a good {@code .hlo.pb} is skipped with a warning
 * naming it and where it went wrong, as a bad text report beside its buffer-assignment file is
 *; the module loads without its report's totals.
 */
class BadReportBesideModuleTest {
    @Test
    void theModuleLoadsAndTheReportIsAWarning(@TempDir Path dir) throws Exception {
        ProtoGen g = new ProtoGen();
        g.buffer(g.parameter("p", ProtoGen.array(4), 0), 16);
        String stem = "module_0000.jit_f.cpu_after_optimizations";
        Path module = Files.write(dir.resolve(stem + ".hlo.pb"), g.bytes());
        Path report = Files.write(dir.resolve(stem + "-memory-usage-report.pb"), new byte[] {0x0a, 0x7f, 0x01});
        for (Path named : List.of(module, dir)) {
            HloModule m = DumpLoader.load(List.of(named)).get(0);
            assertEquals(1, m.values().size());
            assertTrue(m.info().colorTotals().isEmpty());
            LoadWarning w = m.warnings().get(0);
            assertEquals(report.toString(), w.file());
            assertTrue(w.message().startsWith("byte "), w.message());
            assertTrue(w.message().endsWith("; file skipped, the module is read from its other files"), w.message());
            assertEquals(m.warnings().size(), m.warningCount());
        }
    }
}
