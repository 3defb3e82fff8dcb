package bufq.shell.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one way tests compare output with a golden file in the source tree. Run with
 * {@code -Dbufq.updateGoldens=true} to (re)write the files after a deliberate change, then read the diff;
 * the comparison still runs, so an update run passes only on what it wrote.
 */
public final class Golden {
    /** The system property that rewrites golden files. */
    public static final String UPDATE = "bufq.updateGoldens";

    private Golden() {}

    /** {@code MODULE/src/test/resources/golden/RELATIVE} under the checkout ({@code bufq.root}). */
    public static Path file(String module, String relative) {
        return Path.of(System.getProperty("bufq.root", ".")).resolve(module).resolve("src/test/resources/golden").resolve(relative);
    }

    /** {@code actual} must equal the content of {@code file}; under {@link #UPDATE} the file is written first. */
    public static void check(Path file, String actual) throws IOException {
        if (Boolean.getBoolean(UPDATE)) {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(file), "golden file missing: " + file + " (run with -D" + UPDATE + "=true)");
        assertEquals(Files.readString(file, StandardCharsets.UTF_8), actual,
                "differs from golden " + file + " (if the change is intended, run with -D" + UPDATE + "=true and read the diff)");
    }
}
