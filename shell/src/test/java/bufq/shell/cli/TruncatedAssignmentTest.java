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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A buffer-assignment file cut between two allocations (before its temp allocation) reads as a
 * whole file; the total stated beside it (jaxlib 0.10's values file, the memory usage report) is the
 * oracle that it is not. The cut is a warning, and with {@code --bail} a failure before any
 * statement: {@code fit} and {@code diff --fail-over} cannot pass on it. A file alone is judged by
 * itself: cut at any of several points, at a line's end or inside one, it says where.
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

    /** A committed fixture, kept to its first {@code keep} lines (or bytes), and the line the warning names. */
    private record Cut(String fixture, boolean lines, int keep, int warnedLine) {}

    private static final String ALONE = "jax-0.10.2/series/mlp-b8/module_0000.jit_step.cpu_after_optimizations-buffer-assignment.txt";
    private static final String SINGLE = "public/patrick-toulme_justabyte__tpp-ref_hlo_module_0031.jit_reference_attention-buffer-assignment.txt";

    private static final List<Cut> CUTS = List.of(
            new Cut(ALONE, true, 1, 1),       // the header, no allocation
            new Cut(ALONE, true, 20, 20),     // allocation 4's line, none of its values
            new Cut(ALONE, true, 74, 74),     // the temp allocation's line, none of its values
            new Cut(ALONE, true, 80, 80),     // some of the temp allocation's values
            new Cut(ALONE, false, 100, 2),    // inside a line
            new Cut(ALONE, false, 5000, 78),
            new Cut(SINGLE, true, 1, 1),
            new Cut(SINGLE, true, 40, 40),    // the blank line before 'Total bytes used'
            new Cut(SINGLE, true, 43, 43),    // 'Used values:' alone
            new Cut(SINGLE, true, 150, 150),  // a value block without its instruction
            new Cut(SINGLE, true, 203, 203),  // the values whole, no HloLiveRange after them
            new Cut(SINGLE, true, 210, 210),  // HloLiveRange before its peak
            new Cut(SINGLE, false, 9000, 0)); // inside a line, wherever it falls

    @Test
    void aFileAloneCutAtAnyOfSeveralPointsSaysWhere(@TempDir Path tmp) throws Exception {
        Path corpus = MODULE.getParent().getParent().getParent();
        for (Cut c : CUTS) {
            Path whole = corpus.resolve(c.fixture());
            Path dir = Files.createDirectories(tmp.resolve(c.fixture().replace('/', '_') + "-" + c.lines() + c.keep()));
            Path file = dir.resolve(whole.getFileName());
            byte[] bytes = Files.readAllBytes(whole);
            int end = c.keep();
            if (c.lines()) for (int i = 0, n = 0; i < bytes.length; i++) if (bytes[i] == '\n' && ++n == c.keep()) { end = i + 1; break; }
            assertTrue(end < bytes.length, c + " cuts the file");
            Files.write(file, Arrays.copyOf(bytes, end));
            String where = file + ":" + (c.warnedLine() == 0 ? "" : c.warnedLine() + ":");
            Result warned = bufq("-c", "summary", dir.toString());
            assertEquals(0, warned.code(), c + ": " + warned.err());
            assertTrue(warned.err().contains("bufq: warning: " + where) && warned.err().contains("file ends early (truncated?)"),
                    c + ": " + warned.err());
            Result bail = bufq("--bail", "-c", "fit", dir.toString());
            assertEquals(1, bail.code(), c + ": " + bail.err());
            assertTrue(bail.err().contains("the dump ends early (truncated?): --bail stops here"), c + ": " + bail.err());
            // the cut side loaded by diff itself, not by the session
            Result guard = bufq("--bail", "-c", "diff " + corpus.resolve(c.fixture()).getParent() + " " + dir + " --fail-over 10");
            assertEquals(1, guard.code(), c + ": " + guard.err());
            assertTrue(guard.err().contains("diff --fail-over: " + where), c + ": " + guard.err());
        }
        for (String whole : List.of(ALONE, SINGLE)) {
            Path dir = Files.createDirectories(tmp.resolve("whole-" + whole.hashCode()));
            Files.copy(corpus.resolve(whole), dir.resolve(Path.of(whole).getFileName()));
            Result r = bufq("--bail", "-c", "summary", dir.toString());
            assertEquals(0, r.code(), whole + " whole, alone, passes: " + r.err());
            assertTrue(!r.err().contains("warning"), r.err());
        }
    }
}
