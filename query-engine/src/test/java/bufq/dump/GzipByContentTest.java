package bufq.dump;

import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Gzip is judged by its magic bytes in one place ({@link Gunzip#isGzip}), for a file's open, the
 * directory walk's sniff and the proto sniff alike: not by the name.
 */
class GzipByContentTest {
    private static byte[] gzip(String text) throws Exception {
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(packed)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return packed.toByteArray();
    }

    @Test
    void aGzippedDumpWithoutAGzNameLoads(@TempDir Path dir) throws Exception {
        HloModule plain = DumpLoader.loadText(BadInputTest.NAME, BadInputTest.GOOD);
        Path named = Files.write(dir.resolve(BadInputTest.NAME), gzip(BadInputTest.GOOD));
        HloModule m = DumpLoader.load(List.of(named)).get(0);
        assertEquals(plain.allocations().size(), m.allocations().size());
        assertTrue(m.allocations().size() > 0, "the dump has allocations");

        // In a directory, under a name that says no kind: the walk's sniff inflates the head too.
        Path walk = Files.createDirectories(dir.resolve("walk"));
        Files.write(walk.resolve("collected.log"), gzip(BadInputTest.GOOD));
        List<String> skipped = new ArrayList<>();
        List<ModuleSource> found = DumpLoader.discover(List.of(walk), skipped::add);
        assertEquals(1, found.size(), "skipped: " + skipped);
        assertEquals(plain.allocations().size(), found.get(0).load().allocations().size());
    }

    @Test
    void plainTextNamedGzIsReadAsText(@TempDir Path dir) throws Exception {
        Path gz = Files.writeString(dir.resolve(BadInputTest.NAME + ".gz"), BadInputTest.GOOD);
        HloModule m = DumpLoader.load(List.of(gz)).get(0);
        assertEquals(DumpLoader.loadText(BadInputTest.NAME, BadInputTest.GOOD).allocations().size(), m.allocations().size());
    }

    @Test
    void aFileNamedGzThatIsNeitherGzipNorADumpIsRefusedByName(@TempDir Path dir) throws Exception {
        Path gz = Files.writeString(dir.resolve(BadInputTest.NAME + ".gz"), "not gzip at all");
        LoadException e = assertThrows(LoadException.class, () -> DumpLoader.load(List.of(gz)));
        assertTrue(e.getMessage().contains(gz.toString()), e.getMessage());
        assertTrue(e.reason().contains("not gzip"), e.getMessage());
        assertEquals(1, e.line(), e.getMessage());
    }
}
