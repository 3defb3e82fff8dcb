package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A buffer-assignment file cut between two allocations (before its temp allocation) reads as a
 * whole file; the total stated beside it (jaxlib 0.10's values file, the memory usage report) is the
 * oracle that it is not. The cut is a warning, and with {@code --bail} a failure before any
 * statement: {@code fit} and {@code diff --fail-over} cannot pass on it.
 */
class TruncatedAssignmentTest {
    private static final Path MODULE = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize()
            .resolve("query-engine/src/test/resources/corpus/jax-0.10.2/series/mlp-b8");

    private record Result(int code, String err) {}

    private static Result bufq(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = new Bufq(new Env(Map.of(), false), DefaultEngine::new, in -> { throw new AssertionError("no REPL"); })
                .run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, err.toString(StandardCharsets.UTF_8));
    }

    private static Path cut(Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("cut"));
        try (Stream<Path> s = Files.list(MODULE)) {
            for (Path f : s.toList()) Files.copy(f, dir.resolve(f.getFileName()));
        }
        Path assignment = dir.resolve("module_0000.jit_step.cpu_after_optimizations-buffer-assignment.txt");
        String text = Files.readString(assignment, StandardCharsets.UTF_8);
        int temp = text.indexOf("allocation 28: size 4460544, preallocated-temp:");
        assertTrue(temp > 0, "the module's temp allocation is where the test cuts");
        Files.writeString(assignment, text.substring(0, temp), StandardCharsets.UTF_8);
        return dir;
    }

    @Test
    void aFileCutBeforeItsTempAllocationFailsBail(@TempDir Path tmp) throws Exception {
        Path dir = cut(tmp);
        Result warned = bufq("-c", "summary", dir.toString());
        assertEquals(0, warned.code(), warned.err());
        assertTrue(warned.err().contains("file ends early (truncated?): its allocations add up to 16826512 bytes, where the dump states "
                + "Total bytes used: 21287056"), warned.err());
        Result bail = bufq("--bail", "-c", "fit", dir.toString());
        assertEquals(1, bail.code(), bail.err());
        assertTrue(bail.err().contains("the dump ends early (truncated?): --bail stops here"), bail.err());
        Result whole = bufq("--bail", "-c", "summary", MODULE.toString());
        assertEquals(0, whole.code(), "the whole file passes: " + whole.err());
    }
}
