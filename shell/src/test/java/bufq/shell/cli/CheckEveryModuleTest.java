package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** {@code bufq --bail -c check DIR} checks every module of the directory, not only the first. */
class CheckEveryModuleTest {
    @TempDir Path dir;

    private static final String SEED = "examples/seeds/001_8fa21c8202130165.txt";

    /** A clean module first and a doctored one (a value past its allocation's end) second. */
    private void writeDir() throws IOException {
        String clean = Files.readString(CliTest.root().resolve(SEED));
        String bad = "value: <168 xor.4 @6> (size=512,offset=1024)";
        String doctored = clean.replace("value: <168 xor.4 @6> (size=512,offset=0)", bad);
        assertTrue(doctored.contains(bad), "the seed no longer has the value this test moves");
        Files.writeString(dir.resolve("module_0001.a-buffer-assignment.txt"), clean);
        Files.writeString(dir.resolve("module_0002.b-buffer-assignment.txt"), doctored);
    }

    @Test
    void everyModuleIsCheckedAndTheExitCodeCountsThemAll() throws IOException {
        writeDir();
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("--bail", "-c", "check", dir.toString()), "");
        assertEquals(1, r.code(), () -> r.out() + r.err());
        assertTrue(r.out().contains("outside-allocation"), r.out());
        assertTrue(r.out().contains("2 modules checked, 1 with errors: 1 error"), r.out());
        // each module named, the clean one with its own summary
        assertTrue(r.out().contains("\na: 0 errors, 0 warnings, "), r.out());
        assertTrue(r.out().contains("\nb: 1 error, 0 warnings, "), r.out());
        assertTrue(r.out().contains("(8 checks each: overlap, outside-allocation, "), r.out());
    }

    @Test
    void aCleanDirectoryPasses() throws IOException {
        String clean = Files.readString(CliTest.root().resolve(SEED));
        Files.writeString(dir.resolve("module_0001.a-buffer-assignment.txt"), clean);
        Files.writeString(dir.resolve("module_0002.b-buffer-assignment.txt"), clean);
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("--bail", "-c", "check", dir.toString()), "");
        assertEquals(0, r.code(), () -> r.out() + r.err());
        assertTrue(r.out().contains("2 modules checked, 0 with errors: 0 errors"), r.out());
    }
}
