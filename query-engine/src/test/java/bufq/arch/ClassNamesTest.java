package bufq.arch;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No two top-level main classes share a simple name, across the engine, the shell and the bench:
 * a reader who meets {@code Names} or {@code Fields} should not have to look at the import to know
 * which one it is. Read from the source trees (the shell's and the bench's sit beside this module).
 */
class ClassNamesTest {
    private static final List<Path> MAIN_TREES = List.of(
            Path.of("src/main/java"), Path.of("../shell/src/main/java"), Path.of("../bench/src/main/java"));

    static Map<String, List<String>> sharedNames(List<Path> trees) throws IOException {
        Map<String, List<String>> byName = new TreeMap<>();
        for (Path tree : trees) {
            if (!Files.isDirectory(tree)) continue;
            try (Stream<Path> files = Files.walk(tree)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String file = f.getFileName().toString();
                    if (!file.endsWith(".java") || file.equals("package-info.java") || file.equals("module-info.java")) continue;
                    byName.computeIfAbsent(file.substring(0, file.length() - 5), k -> new ArrayList<>())
                            .add(tree.relativize(f).toString());
                }
            }
        }
        byName.values().removeIf(paths -> paths.size() < 2);
        return byName;
    }

    @Test
    void noTwoTopLevelClassesShareASimpleName() throws IOException {
        assertTrue(Files.isDirectory(MAIN_TREES.get(0)), "run from the query-engine module");
        assertEquals(Map.of(), sharedNames(MAIN_TREES));
    }

    /** The check can fail: two trees that both hold a {@code Names} are reported. */
    @Test
    void theCheckFindsASharedName(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("a/x"));
        Files.createDirectories(dir.resolve("b/y"));
        Files.writeString(dir.resolve("a/x/Names.java"), "package x; class Names {}");
        Files.writeString(dir.resolve("b/y/Names.java"), "package y; class Names {}");
        Files.writeString(dir.resolve("b/y/Other.java"), "package y; class Other {}");
        assertEquals(Map.of("Names", List.of("x/Names.java", "y/Names.java")),
                sharedNames(List.of(dir.resolve("a"), dir.resolve("b"))));
    }
}
