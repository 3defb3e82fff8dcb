package bufq.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No main source file of the engine over {@value #LIMIT} lines: a file that long does more than
 * one job. No file is let off.
 */
class FileSizeTest {
    static final int LIMIT = 500;

    static List<String> tooLong(Path tree, int limit) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(tree)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (!f.toString().endsWith(".java")) continue;
                long lines;
                try (Stream<String> l = Files.lines(f)) { lines = l.count(); }
                if (lines > limit) out.add(tree.relativize(f).toString().replace('\\', '/') + " (" + lines + " lines)");
            }
        }
        out.sort(null);
        return out;
    }

    @Test
    void noMainSourceFileOverTheLimit() throws IOException {
        Path main = Path.of("src/main/java");
        assertTrue(Files.isDirectory(main), "run from the query-engine module");
        assertEquals(List.of(), tooLong(main, LIMIT));
    }

    @Test
    void theCheckCountsLines(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("Long.java"), "x\n".repeat(12));
        Files.writeString(dir.resolve("Short.java"), "x\n".repeat(10));
        assertEquals(List.of("Long.java (12 lines)"), tooLong(dir, 10));
    }
}
