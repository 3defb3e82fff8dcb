package bufq.shell.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No main source file of the shell or the bench over 500 lines (STYLE.md: no file over ~400 lines
 * without a reason): a file that long does more than one job. No file is let off. The engine's files
 * are held by its own {@code bufq.arch.FileSizeTest}.
 */
class FileSizeTest {
    static final int MAX_LINES = 500;

    private static final Path ROOT = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();

    @Test
    void noMainSourceFileIsOver500Lines() throws IOException {
        TreeMap<String, Long> over = new TreeMap<>();
        int files = 0;
        for (String module : List.of("shell", "bench")) {
            try (Stream<Path> all = Files.walk(ROOT.resolve(module).resolve("src/main"))) {
                for (Path p : all.filter(f -> f.toString().endsWith(".java")).toList()) {
                    files++;
                    long lines;
                    try (Stream<String> l = Files.lines(p)) {
                        lines = l.count();
                    }
                    String name = ROOT.relativize(p).toString().replace('\\', '/');
                    if (lines > MAX_LINES) over.put(name, lines);
                }
            }
        }
        assertTrue(files > 50, "found the sources under " + ROOT + " (" + files + " files)");
        assertEquals(new TreeMap<>(), over, "main source files over " + MAX_LINES + " lines: split them");
    }
}
