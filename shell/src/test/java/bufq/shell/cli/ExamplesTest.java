package bufq.shell.cli;

import bufq.shell.repl.PlainRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every walkthrough script in {@code examples/} runs on the dump its {@code # run:} header names,
 * succeeds, and prints exactly its golden {@code .out} file beside it, so the walkthroughs stay
 * true as bufq changes. Regenerate with {@code -Dbufq.updateGoldens=true}.
 */
class ExamplesTest {
    private static final Path ROOT = CliTest.root();

    @TestFactory
    Stream<DynamicTest> everyWalkthroughRunsAndMatchesItsGolden() throws IOException {
        List<Path> scripts;
        try (Stream<Path> s = Files.list(ROOT.resolve("examples"))) {
            scripts = s.filter(p -> p.toString().endsWith(".bq")).sorted().toList();
        }
        assertFalse(scripts.isEmpty(), "examples/ has walkthrough scripts");
        return scripts.stream().map(script -> DynamicTest.dynamicTest(script.getFileName().toString(), () -> run(script)));
    }

    @org.junit.jupiter.api.Test
    void theExamplesReadmeListsEveryWalkthroughOnce() throws IOException {
        String readme = Files.readString(ROOT.resolve("examples/README.md"));
        try (Stream<Path> s = Files.list(ROOT.resolve("examples"))) {
            for (Path p : s.filter(x -> x.toString().endsWith(".bq")).toList()) {
                String row = "| `" + p.getFileName() + "` |";
                assertEquals(1, readme.split(java.util.regex.Pattern.quote(row), -1).length - 1, row + " rows in examples/README.md");
            }
        }
    }

    private static void run(Path script) throws IOException {
        String first = Files.readAllLines(script).get(0);
        assertTrue(first.startsWith("# run: "), script + " must start with '# run: DUMP...'");
        List<String> args = new ArrayList<>(List.of("-f", script.toString()));
        for (String dump : first.substring("# run: ".length()).trim().split("\\s+")) args.add(ROOT.resolve(dump).toString());

        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = new Bufq(new Env(Map.of(), false), DefaultEngine::new, PlainRepl::new).run(args.toArray(String[]::new), new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, script + " failed: " + err.toString(StandardCharsets.UTF_8));

        Golden.check(Path.of(script.toString().replaceAll("\\.bq$", ".out")), text);
    }
}
