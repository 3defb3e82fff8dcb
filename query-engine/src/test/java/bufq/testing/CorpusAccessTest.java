package bufq.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tests reach the corpus only through {@link Corpus}: no other test source names its folder, so
 * every test that needs it skips (or, in CI, fails) with the reason when it is absent, instead of
 * failing a user's clone with a missing file.
 */
class CorpusAccessTest {
    /** What a test would write to reach the corpus without {@link Corpus} (split, so this file names neither). */
    static final List<String> NAMES = List.of(".." + "/shared", "shared" + "/corpus");

    static Path root() {
        return Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
    }

    /** Each line of a test source (any module's {@code src/test/java}), but Corpus's own, naming the corpus's folder. */
    static List<String> offenders(Path root) throws IOException {
        List<String> out = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> modules = Files.list(root)) {
            sources = modules.map(m -> m.resolve("src/test/java")).filter(Files::isDirectory).flatMap(d -> {
                try (Stream<Path> w = Files.walk(d)) {
                    return w.filter(p -> p.toString().endsWith(".java")).toList().stream();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sorted().toList();
        }
        for (Path p : sources) {
            if (p.getFileName().toString().equals("Corpus.java")) continue;
            List<String> lines = Files.readAllLines(p);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (NAMES.stream().anyMatch(line::contains)) out.add(root.relativize(p) + ":" + (i + 1) + ": " + line.strip());
            }
        }
        return out;
    }

    @Test
    void noTestButCorpusNamesTheCorpusFolder() throws IOException {
        Path root = root();
        assertTrue(Files.isDirectory(root.resolve("query-engine/src/test/java/bufq/testing")), "the checkout at " + root);
        assertEquals(List.of(), offenders(root), "use bufq.testing.Corpus (require, requireFile, RELATIVE) instead");
    }

    /** The check can fail: a test source naming the folder is reported with its file and line. */
    @Test
    void aTestNamingTheFolderIsReported(@TempDir Path tmp) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("m/src/test/java/x"));
        Files.writeString(src.resolve("BadTest.java"), "class BadTest {\n  Path p = Path.of(\"" + NAMES.get(0) + "/corpus\");\n}\n");
        Files.writeString(src.resolve("Corpus.java"), "class Corpus { String s = \"" + NAMES.get(1) + "\"; }\n");
        assertEquals(List.of("m/src/test/java/x/BadTest.java:2: Path p = Path.of(\"" + NAMES.get(0) + "/corpus\");"), offenders(tmp));
    }
}
