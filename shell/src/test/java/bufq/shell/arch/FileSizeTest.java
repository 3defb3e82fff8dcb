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

    /**
     * The session's hub stays small: what a command needs is its CommandContext, not the
     * Shell. Its import lines do not count: they grew when the session's rooms split, its
     * code did not.
     */
    static final int SHELL_MAX_LINES = 250;

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

    @Test
    void theShellStaysUnder250Lines() throws IOException {
        Path shell = ROOT.resolve("shell/src/main/java/bufq/shell/run/Shell.java");
        long lines;
        try (Stream<String> l = Files.lines(shell)) {
            lines = l.filter(line -> !line.startsWith("import ")).count();
        }
        assertTrue(lines > 50, "found " + shell);
        assertTrue(lines < SHELL_MAX_LINES, shell + " has " + lines + " lines: move what grew into the class it belongs to");
    }

    /** A main package with more than this many files holds several concerns: give each a room. */
    static final int MAX_PACKAGE_FILES = 25;

    /**
     * No main package of the engine, the shell or the bench holds more than 25 source files; the
     * commands' package, one class per command in one registry, is the one room meant to grow.
     */
    @Test
    void noMainPackageIsOver25Files() throws IOException {
        TreeMap<String, Long> over = new TreeMap<>();
        int packages = 0;
        for (String module : List.of("query-engine", "shell", "bench")) {
            try (Stream<Path> all = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
                for (Path dir : all.filter(Files::isDirectory).toList()) {
                    long n;
                    try (Stream<Path> in = Files.list(dir)) {
                        n = in.filter(f -> f.toString().endsWith(".java") && !f.getFileName().toString().equals("package-info.java")).count();
                    }
                    if (n == 0) continue;
                    packages++;
                    String name = ROOT.relativize(dir).toString().replace('\\', '/');
                    if (n > MAX_PACKAGE_FILES && !name.endsWith("/bufq/shell/command")) over.put(name, n);
                }
            }
        }
        assertTrue(packages > 30, "found the packages under " + ROOT + " (" + packages + ")");
        assertEquals(new TreeMap<>(), over, "main packages over " + MAX_PACKAGE_FILES + " files: split them by concern");
    }
}
