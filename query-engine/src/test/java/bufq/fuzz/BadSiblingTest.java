package bufq.fuzz;

import bufq.dump.DumpLoader;
import bufq.dump.file.LoadException;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * One bad file of a four-file set is refused in its own words, and the module is read from the
 * others: a stray byte in a memory usage report, a live-range file with its lines shuffled.
 */
class BadSiblingTest {
    @TempDir Path dir;

    /** The jax-mlp example copied here; returns the file whose name ends with {@code suffix}. */
    private Path copy(String suffix) throws IOException {
        Path found = null;
        try (Stream<Path> s = Files.list(Fuzz.root().resolve("examples/jax-mlp"))) {
            for (Path p : s.toList()) {
                Path to = dir.resolve(p.getFileName());
                Files.copy(p, to);
                if (p.getFileName().toString().endsWith(suffix)) found = to;
            }
        }
        assertNotNull(found, suffix);
        return found;
    }

    private HloModule loadOne() throws LoadException {
        List<HloModule> ms = DumpLoader.load(List.of(dir));
        assertEquals(1, ms.size());
        ms.get(0).values(); // every part read
        return ms.get(0);
    }

    @Test
    void aBadByteInTheReportSkipsTheReportOnly() throws Exception {
        Path report = copy("-memory-usage-report.txt");
        byte[] b = Files.readAllBytes(report);
        b[100] = 0;
        Files.write(report, b);
        HloModule m = loadOne();
        assertEquals(26, m.values().size(), "values from the other files");
        assertEquals(1, m.warningCount(), m.warnings().toString());
        String w = m.warnings().get(0).toString();
        assertTrue(w.startsWith(report + ":3: binary file (a NUL byte at column 36), not a memory usage report;"
                + " file skipped, the module is read from its other files"), w);
    }

    @Test
    void notUtf8InTheReportSaysSo() throws Exception {
        Path report = copy("-memory-usage-report.txt");
        byte[] b = Files.readAllBytes(report);
        b[10] = (byte) 0xff;
        Files.write(report, b);
        HloModule m = loadOne();
        String w = m.warnings().get(0).toString();
        assertTrue(w.contains("not UTF-8 text (byte 0xff at column 11), not a memory usage report; file skipped"), w);
    }

    @Test
    void aShuffledLiveRangeFileIsNamedAsSuch() throws Exception {
        Path live = copy("-live-range.txt");
        List<String> lines = new ArrayList<>(Files.readAllLines(live));
        Collections.shuffle(lines, new Random(17));
        if (lines.get(0).startsWith("HloLiveRange")) Collections.swap(lines, 0, 1);
        Files.write(live, lines);
        HloModule m = loadOne();
        assertEquals(26, m.values().size());
        String w = m.warnings().get(0).toString();
        assertTrue(w.contains(live + ":1: not a live-range file (expected 'HloLiveRange (max N):', found '"), w);
        assertTrue(w.endsWith("; file skipped, the module is read from its other files"), w);
        assertFalse(w.contains("BufferAssignment"), w);
    }

    @Test
    void aBadBufferAssignmentFileStillRefusesTheModule() throws Exception {
        Path main = copy("-buffer-assignment.txt");
        byte[] b = Files.readAllBytes(main);
        b[5] = 0;
        Files.write(main, b);
        LoadException e = assertThrows(LoadException.class, this::loadOne);
        assertTrue(e.getMessage().contains("binary file (a NUL byte at column 6), not a buffer-assignment dump"), e.getMessage());
    }

    @Test
    void anIdUsedTwiceInTheValuesFileIsWarnedAtItsLineAndFailsCheck() throws Exception {
        Path values = copy("-buffer-assignment-values.txt");
        String text = Files.readString(values);
        assertTrue(text.contains("\n<1 reduce_sum.4 @0>\n"));
        Files.writeString(values, text.replace("\n<1 reduce_sum.4 @0>\n", "\n<0 reduce_sum.4 @0>\n"));
        HloModule m = loadOne();
        m.usedValues().read();
        assertEquals(1, m.warningCount(), m.warnings().toString());
        assertEquals(values + ":11: value id 0 was already used by the block at " + values + ":5; ids must be unique"
                + " (the later block's positions and uses are kept)", m.warnings().get(0).toString());
        var r = bufq.analysis.check.Checks.check(m, bufq.model.TilingModel.TPU, List.of());
        assertEquals(List.of("value id 0 heads 2 blocks of the Used values section; the last one's positions and uses are kept"),
                r.of("duplicate-id").stream().map(f -> f.message()).toList(), r.findings().toString());
    }
}
