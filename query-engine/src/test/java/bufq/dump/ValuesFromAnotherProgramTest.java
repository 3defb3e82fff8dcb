package bufq.dump;

import bufq.model.HloModule;
import bufq.model.LoadWarning;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A values file that does not belong to the buffer-assignment file beside it (another program's,
 * or another run's with other ids) is joined by id all the same, but said once, with counts
 *; the module's own values file is not.
 */
class ValuesFromAnotherProgramTest {
    private static final Path EXAMPLE = Path.of(System.getProperty("bufq.root", "..")).resolve("examples/jax-mlp");

    private static Path copy(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(EXAMPLE)) {
            for (Path f : s.toList()) Files.copy(f, dir.resolve(f.getFileName()));
        }
        return dir;
    }

    private static List<LoadWarning> valuesWarnings(Path dir) throws Exception {
        HloModule m = DumpLoader.load(List.of(dir)).get(0);
        m.values().get(0).positions();   // reads the values file
        return m.warnings().stream().filter(w -> w.message().contains("does not match the buffer assignment")).toList();
    }

    @Test
    void theModulesOwnValuesFileIsNotWarnedAbout(@TempDir Path dir) throws Exception {
        assertEquals(List.of(), valuesWarnings(copy(dir)));
    }

    @Test
    void valuesOfAnotherRunAreWarnedAboutOnceWithCounts(@TempDir Path dir) throws Exception {
        copy(dir);
        Path values;
        try (Stream<Path> s = Files.list(dir)) {
            values = s.filter(p -> p.toString().endsWith("-buffer-assignment-values.txt")).findFirst().orElseThrow();
        }
        // The same blocks under other ids: each value joins the block of another one.
        Matcher m = Pattern.compile("(?m)^<(\\d+) ").matcher(Files.readString(values));
        StringBuilder shifted = new StringBuilder();
        while (m.find()) m.appendReplacement(shifted, "<" + (Long.parseLong(m.group(1)) + 1) + " ");
        m.appendTail(shifted);
        Files.writeString(values, shifted);
        List<LoadWarning> w = valuesWarnings(dir);
        assertEquals(1, w.size(), w.toString());
        assertEquals(values.toString(), w.get(0).file());
        assertTrue(w.get(0).message().matches(".*: \\d+ of the \\d+ values whose ids it holds are not at their own instruction;.*"),
                w.get(0).message());
    }
}
