package bufq.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Golden files under {@code src/test/resources/golden/analysis}. Run with
 * {@code -Dbufq.updateGoldens=true} to (re)write them after a deliberate change, then review the diff.
 */
final class Golden {
    private Golden() {}

    static Path dir() {
        String root = System.getProperty("bufq.root", ".");
        Path p = Paths.get(root, "query-engine", "src", "test", "resources", "golden", "analysis");
        if (!Files.isDirectory(p)) p = Paths.get("src", "test", "resources", "golden", "analysis");
        return p;
    }

    static void check(String name, String actual) throws IOException {
        Path f = dir().resolve(name);
        if (Boolean.getBoolean("bufq.updateGoldens")) {
            Files.createDirectories(f.getParent());
            Files.writeString(f, actual, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(f), "golden file missing: " + f + " (run with -Dbufq.updateGoldens=true)");
        assertEquals(Files.readString(f, StandardCharsets.UTF_8), actual, "differs from golden " + f);
    }
}
