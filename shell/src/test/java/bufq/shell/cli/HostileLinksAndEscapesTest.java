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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A dump folder from a bug report may link to a file of this machine's, and a script may carry
 * terminal escapes in its statements: neither the file's text nor a raw escape reaches stderr.
 */
class HostileLinksAndEscapesTest {
    private static final Path MODULE = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize()
            .resolve("query-engine/src/test/resources/corpus/jax-0.10.2/series/mlp-b8");

    private record Result(int code, String out, String err) {}

    private static Result bufq(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = new Bufq(new Env(Map.of(), false), DefaultEngine::new, in -> { throw new AssertionError("no REPL"); })
                .run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aLinkOutOfADumpDirectoryIsNotFollowedNorQuoted(@TempDir Path tmp) throws Exception {
        Path secret = Files.writeString(tmp.resolve("id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA\n");
        Path dir = Files.createDirectories(tmp.resolve("report"));
        try (Stream<Path> s = Files.list(MODULE)) {
            for (Path f : s.toList()) Files.copy(f, dir.resolve(f.getFileName()));
        }
        Files.createSymbolicLink(dir.resolve("notes.txt"), secret);
        Files.createSymbolicLink(dir.resolve("module_0001.jit_x.cpu_after_optimizations-buffer-assignment.txt"), secret);
        Result r = bufq("-c", "summary", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("(a link out of the directory, not followed)"), r.err());
        assertFalse(r.err().contains("OPENSSH") || r.out().contains("OPENSSH") || r.err().contains("b3Bl"), r.err());
    }

    @Test
    void escapesInAScriptsStatementsAreShownEscaped(@TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("evil.bq"), String.join("\n",
                "nosuch\u001b]2;owned\u0007",
                "values where name = 'x\u001b[2J' and nme = 1",
                "export parquet " + tmp.resolve("p") + " --partition night=\u202eexe.txt",
                ""));
        Result r = bufq("-f", script.toString(), MODULE.toString());
        assertEquals(1, r.code());
        assertFalse(r.err().contains("\u001b") || r.err().contains("\u0007") || r.err().contains("\u202e"), r.err());
        assertTrue(r.err().contains("\\x1b"), r.err());
    }
}
