package bufq.shell.script;

import bufq.shell.cli.Bufq;
import bufq.shell.repl.PlainRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** JavaScript through the real entry point: -f FILE.js, -c 'js ...', exit codes and messages. */
class CliJsTest {
    record Case(String name, List<String> args, int exit, List<String> out, List<String> err, List<String> notOut) {
        @Override public String toString() { return name; }
    }

    static String root(String rel) { return Harness.root().resolve(rel).toString(); }

    static Stream<Case> cases() {
        String seed = Harness.seed(0).toString(), mlp = root("examples/jax-mlp");
        return Stream.of(
                new Case("field from -f used by -c", List.of("-f", root("scripts/fields/waste.js"), "-c",
                        "values where waste > 1KiB show label, waste", seed), 0, List.of("add.3", "4.0KiB"), List.of(), List.of()),
                new Case("report script", List.of("-f", root("scripts/reports/top-at-peak.js"), mlp), 0,
                        List.of("# Memory at the peak of jit_f (cpu)", "| w1.1 | 16.0MiB |"), List.of(), List.of()),
                new Case("check from -f fails the run", List.of("-c", "js bufq.check('strict', (m, r) => r.error(m.values[0], 'no'))",
                        "-c", "check", seed), 1, List.of("strict", "no", "9 checks"), List.of(), List.of()),
                new Case("error names the place", List.of("-c", "js nosuch()"), 1, List.of(),
                        List.of("error: js:1:1: ReferenceError: nosuch is not defined"), List.of()),
                new Case("missing script: a usage error, as for .bq", List.of("-f", "nope.js"), 2, List.of(),
                        List.of("bufq: cannot read script nope.js: no such file"), List.of()),
                new Case("bail stops after a script error", List.of("--bail", "-c", "js throw new Error('first')", "-c", "js print('second')"),
                        1, List.of(), List.of("js:1:7: Error: first"), List.of("second")),
                new Case("without bail the next runs", List.of("-c", "js throw new Error('first')", "-c", "js print('second')"),
                        1, List.of("second"), List.of("Error: first"), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void run(Case c) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("--no-init"));
        args.addAll(c.args());
        int code = new Bufq(new Env(Map.of(), false), DefaultEngine::new, PlainRepl::new).run(args.toArray(String[]::new),
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8), e = err.toString(StandardCharsets.UTF_8);
        assertEquals(c.exit(), code, o + e);
        for (String s : c.out()) assertTrue(o.contains(s), "stdout lacks " + s + ":\n" + o + e);
        for (String s : c.err()) assertTrue(e.contains(s), "stderr lacks " + s + ":\n" + e);
        for (String s : c.notOut()) assertFalse(o.contains(s), "stdout has " + s);
        assertFalse(e.contains("\tat "), "no stack trace: " + e);
    }
}
