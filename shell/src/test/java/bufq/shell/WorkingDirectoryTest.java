package bufq.shell;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A run whose {@link Env#cwd()} is not the JVM's (a resident server's client): every relative path
 * is a file in that directory, and output is the run with absolute paths, names spelled as written.
 */
class WorkingDirectoryTest {
    private static final Path EXAMPLES = CliTest.root().resolve("examples");

    @TempDir Path dir;

    record Run(int exit, String out, String err) {}

    @BeforeEach
    void copyAnExample() throws IOException {
        assumeTrue(Files.isDirectory(EXAMPLES.resolve("jax-mlp")), "examples not found at " + EXAMPLES);
        Files.createDirectories(dir.resolve("dumps/jax-mlp"));
        try (Stream<Path> files = Files.list(EXAMPLES.resolve("jax-mlp"))) {
            for (Path f : files.toList()) Files.copy(f, dir.resolve("dumps/jax-mlp").resolve(f.getFileName()));
        }
        Files.copy(EXAMPLES.resolve("peak-report.bq"), dir.resolve("report.bq"));
        Files.createDirectories(dir.resolve("scripts"));
        Files.writeString(dir.resolve("scripts/inner.bq"), "values order by size desc limit 3\nnosuchcommand\n");
    }

    /** The script, its dumps, a nested {@code run}, {@code load}, {@code diff} and the files written. */
    @Test
    void relativePathsAreFilesInTheClientsDirectory() throws IOException {
        Files.writeString(dir.resolve("session.bq"), String.join("\n",
                "set maxwidth 0",
                "run scripts/inner.bq",
                "output out/result.md",
                "summary",
                "output",
                "timeline --svg out/t.svg",
                "map 0 --html out/m.html",
                "load dumps/jax-mlp/module_0000.jit_f.cpu_after_optimizations-buffer-assignment.txt",
                "modules",
                "diff 1 dumps/jax-mlp",
                "run scripts/missing.bq",
                "output scripts --force",
                "") + "\n");
        Files.createDirectories(dir.resolve("out"));
        Run rel = run(dir, "--format", "csv", "-f", "session.bq", "dumps/jax-mlp");
        assertTrue(Files.exists(dir.resolve("out/m.html")), rel.err());
        byte[] result = Files.readAllBytes(dir.resolve("out/result.md"));
        byte[] svg = Files.readAllBytes(dir.resolve("out/t.svg"));
        byte[] html = Files.readAllBytes(dir.resolve("out/m.html"));
        assertTrue(new String(result, StandardCharsets.UTF_8).contains("jit_f"), "summary in the file");
        assertTrue(rel.err().contains("scripts/inner.bq:2"), "errors name the nested script as written: " + rel.err());
        assertTrue(rel.err().contains("cannot read scripts/missing.bq: no such file"), rel.err());
        assertTrue(rel.err().contains("wrote out/t.svg"), rel.err());
        assertTrue(rel.err().contains("cannot write scripts: scripts is a directory"), rel.err());
        try (Stream<Path> left = Files.list(dir.resolve("out"))) {
            assertEquals(List.of("m.html", "result.md", "t.svg"), left.map(p -> p.getFileName().toString()).sorted().toList(),
                    "written in place, no temporary file left");
        }
        // Nothing landed in the JVM's directory.
        assertFalse(Files.exists(Path.of("out/result.md")));

        // The same session spelled with absolute paths, run from the JVM's directory.
        for (Path f : List.of(dir.resolve("out/result.md"), dir.resolve("out/t.svg"), dir.resolve("out/m.html"))) Files.delete(f);
        Files.writeString(dir.resolve("session-abs.bq"), Files.readString(dir.resolve("session.bq"))
                .replaceAll("(?m)^(run|output|load) (?!--)", "$1 " + dir + "/")
                .replace("--svg out/", "--svg " + dir + "/out/").replace("--html out/", "--html " + dir + "/out/")
                .replace("diff 1 dumps/", "diff 1 " + dir + "/dumps/"));
        Run abs = run(Path.of("").toAbsolutePath(), "--format", "csv", "-f", dir.resolve("session-abs.bq").toString(), dir.resolve("dumps/jax-mlp").toString());
        assertEquals(abs.exit(), rel.exit());
        String cut = dir + "/";
        assertEquals(abs.out().replace(cut, "").replace("session-abs.bq", "session.bq"), rel.out().replace(cut, ""));
        assertEquals(abs.err().replace(cut, "").replace("session-abs.bq", "session.bq"), rel.err().replace(cut, ""));
        assertEquals(new String(result, StandardCharsets.UTF_8).replace(cut, ""),
                Files.readString(dir.resolve("out/result.md")).replace(cut, ""));
        assertEquals(new String(svg, StandardCharsets.UTF_8), Files.readString(dir.resolve("out/t.svg")));
        assertEquals(new String(html, StandardCharsets.UTF_8), Files.readString(dir.resolve("out/m.html")));
    }

    /** The shipped walkthrough, as {@code cd DIR; bufq -f report.bq dumps/jax-mlp}: output as with absolute paths. */
    @Test
    void theWalkthroughScriptRunsFromTheClientsDirectory() {
        Run rel = run(dir, "-f", "report.bq", "dumps/jax-mlp");
        Run abs = run(Path.of("").toAbsolutePath(), "-f", dir.resolve("report.bq").toString(), dir.resolve("dumps/jax-mlp").toString());
        assertTrue(rel.out().contains("peak"), rel.out());
        assertEquals(abs.exit(), rel.exit(), rel.err());
        assertEquals(abs.out().replace(dir + "/", ""), rel.out());
        assertEquals(abs.err().replace(dir + "/", ""), rel.err());
    }

    /** {@code -f FILE.js} and {@code run FILE.js}: the JavaScript host reads from the client's directory too. */
    @Test
    void javaScriptFilesAreReadFromTheClientsDirectory() throws IOException {
        Path waste = CliTest.root().resolve("scripts/fields/waste.js");
        assumeTrue(Files.isRegularFile(waste), "scripts not found at " + waste);
        Files.createDirectories(dir.resolve("js"));
        Files.copy(waste, dir.resolve("js/waste.js"));
        Files.writeString(dir.resolve("js/bad.js"), "let a = 1;\nnot valid(\n");
        Run rel = run(dir, "-f", "js/waste.js", "-c", "values where waste > 1KiB show label, waste", "-c", "run js/bad.js",
                "-c", "run js/none.js", "dumps/jax-mlp");
        Run abs = run(Path.of("").toAbsolutePath(), "-f", dir.resolve("js/waste.js").toString(), "-c",
                "values where waste > 1KiB show label, waste", "-c", "run " + dir.resolve("js/bad.js"),
                "-c", "run " + dir.resolve("js/none.js"), dir.resolve("dumps/jax-mlp").toString());
        assertTrue(rel.err().contains("js/bad.js:2"), rel.err());
        assertTrue(rel.err().contains("cannot read js/none.js: no such file"), rel.err());
        assertTrue(rel.out().contains("waste"), rel.out());
        assertEquals(abs.exit(), rel.exit());
        assertEquals(abs.out().replace(dir + "/", ""), rel.out());
        assertEquals(abs.err().replace(dir + "/", ""), rel.err());
    }

    @Test
    void missingFilesAreNamedAsWritten() throws IOException {
        Run noScript = run(dir, "-f", "nope.bq", "dumps/jax-mlp");
        assertEquals(Bufq.USAGE, noScript.exit());
        assertEquals("bufq: cannot read script nope.bq: no such file\n", noScript.err());
        Run noDump = run(dir, "-c", "summary", "dumps/nope");
        assertEquals(Bufq.LOAD, noDump.exit());
        assertEquals("bufq: dumps/nope: no such file or directory\n", noDump.err());
        // A file of the JVM's directory is not the client's.
        assumeTrue(Files.exists(Path.of("pom.xml")));
        assertEquals("bufq: pom.xml: no such file or directory\n", run(dir, "-c", "summary", "pom.xml").err());
    }

    /** An engine made from the Env, as a server would pass one (here the default one). */
    @Test
    void withEngineGivesTheEngineTheEnv() {
        Env env = new Env(Map.of(), false, false, dir);
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Bufq.withEngine(env, Bufq::defaultEngine, in -> { throw new AssertionError("no terminal"); })
                .run(new String[] {"-c", "modules", "dumps/jax-mlp"}, new ByteArrayInputStream(new byte[0]),
                        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("jit_f"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void envResolve() {
        Env env = new Env(Map.of(), false, false, dir);
        assertEquals(dir.resolve("a/../b.txt"), env.resolve("a/../b.txt"));
        assertEquals(Path.of("/x/y"), env.resolve("/x/y"));
        Env here = new Env(Map.of(), false);
        assertEquals(Path.of("").toAbsolutePath(), here.cwd());
        assertEquals(Path.of("a/b"), here.resolve("a/b"), "the JVM's directory: unchanged");
    }

    private static Run run(Path cwd, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = new Bufq(new Env(Map.of(), false, false, cwd), in -> { throw new AssertionError("no terminal"); })
                .run(args, new ByteArrayInputStream(new byte[0]),
                        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
