package bufq.shell.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/reliability.md names a test for each bound: every test it names exists, so a renamed or dropped one is seen. */
class ReliabilityTestsTest {
    @Test
    void everyTestThePageNamesExists() throws Exception {
        Path root = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
        String page = Files.readString(root.resolve("docs/reliability.md"));
        List<String> tests;
        try (Stream<Path> s = Stream.of("query-engine", "shell", "bench").map(m -> root.resolve(m).resolve("src/test/java"))
                .filter(Files::isDirectory).flatMap(ReliabilityTestsTest::walk)) {
            tests = s.map(p -> p.getFileName().toString().replace(".java", "")).toList();
        }
        List<String> named = new ArrayList<>();
        for (Matcher m = Pattern.compile("`([A-Z][A-Za-z]*Test)`").matcher(page); m.find(); ) named.add(m.group(1));
        assertTrue(named.size() > 20, "the page names its tests: " + named);
        assertEquals(List.of(), named.stream().filter(t -> !tests.contains(t)).distinct().toList(), "tests the page names that do not exist");
    }

    private static Stream<Path> walk(Path dir) {
        try {
            return Files.walk(dir).filter(p -> p.toString().endsWith("Test.java"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
