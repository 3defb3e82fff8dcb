package bufq.shell.script;

import bufq.shell.cli.Bufq;
import bufq.shell.repl.PlainRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The JavaScript engine starts on first use only: {@code bufq -c summary} loads no GraalVM class,
 * while {@code -c 'js 1'} does (so the check can fail). What a run loads is seen in a child JVM
 * running the real Main with class-load logging; what a run that starts the engine prints is seen
 * in this JVM, through {@link Bufq#run} as Main calls it (a child that starts GraalVM costs 2-3 s
 * of CPU, and only one of them is needed, to show that the engine's classes do show up).
 */
class LazyEngineTest {
    record Run(int exit, String log) {}

    /**
     * Runs bufq in this JVM, as Main does but with {@code XDG_CONFIG_HOME} set to {@code config} and
     * nothing else of the environment; stdout and stderr go to one log, as in a child.
     */
    static Run inProcess(Path config, String... args) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream both = new PrintStream(log, true, StandardCharsets.UTF_8);
        int exit = new Bufq(new Env(Map.of("XDG_CONFIG_HOME", config.toString()), false), DefaultEngine::new, PlainRepl::new)
                .run(args, new ByteArrayInputStream(new byte[0]), both, both);
        return new Run(exit, log.toString(StandardCharsets.UTF_8));
    }

    static Run bufq(Path config, String... args) throws IOException, InterruptedException {
        return bufqAll(config, List.<String[]>of(args)).get(0);
    }

    /**
     * Runs each argument list in a child JVM of its own, all at once (they read the same config and
     * write nothing there), and returns their runs in order. Each child's output goes to a file, so
     * none waits on a pipe nobody reads.
     */
    static List<Run> bufqAll(Path config, List<String[]> runs) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> started = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (String[] args : runs) {
            // The client compiler only: these runs are short, and on two shared cores C2's threads cost
            // each of them more than they save (the suite's own JVMs run so too, docs/testing.md).
            List<String> cmd = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xlog:class+load=info", "-cp",
                    System.getProperty("java.class.path"), "bufq.shell.cli.Main"));
            cmd.addAll(List.of(args));
            Path log = Files.createTempFile(config, "run", ".log");
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().put("XDG_CONFIG_HOME", config.toString());
            pb.redirectErrorStream(true);
            pb.redirectOutput(log.toFile());
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            started.add(pb.start());
            logs.add(log);
        }
        List<Run> out = new ArrayList<>();
        for (int i = 0; i < started.size(); i++) {
            Process p = started.get(i);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            out.add(new Run(p.exitValue(), Files.readString(logs.get(i), StandardCharsets.UTF_8)));
            Files.delete(logs.get(i));
        }
        return out;
    }

    @Test
    void summaryLoadsNoGraalClass(@TempDir Path config) throws Exception {
        Files.createDirectories(config.resolve("bufq")); // a config dir without init.js
        for (Run r : bufqAll(config, List.of(new String[] {"-c", "summary", Harness.seed(0).toString()}, new String[] {"-c", "summary"}))) {
            assertTrue(r.log().contains("bufq.shell.cli.Bufq"), "class logging works");
            assertFalse(r.log().contains(" org.graalvm"), "GraalVM classes were loaded by -c summary");
            assertFalse(r.log().contains(" com.oracle.truffle"), "Truffle classes were loaded by -c summary");
        }
    }

    /**
     * init.js runs on first need: a batch {@code -c summary} with one (even a broken one) never starts
     * the engine and does not fail on it, while a query naming a field it defines, and {@code fields},
     * run it first.
     */
    @Test
    void initJsWaitsForAStatementThatNeedsIt(@TempDir Path config) throws Exception {
        Files.createDirectories(config.resolve("bufq"));
        Path init = config.resolve("bufq/init.js");
        Files.writeString(init, "bufq.field('values', 'size_kib', v => v.size / 1024, {type: 'float'});\nprintErr('init.js ran');\n");
        String dump = Harness.seed(0).toString();
        List<Run> runs = bufqAll(config, List.of(new String[] {"-c", "summary", dump}, new String[] {"-c", "values wher size > 0", dump}));
        Run summary = runs.get(0), syntax = runs.get(1);
        assertEquals(0, summary.exit(), tail(summary.log()));
        assertFalse(summary.log().contains(" org.graalvm"), "init.js started the engine for -c summary");
        assertFalse(summary.log().contains("init.js ran"), tail(summary.log()));
        assertEquals(1, syntax.exit(), tail(syntax.log()));
        assertFalse(syntax.log().contains(" org.graalvm"), "no field mends a syntax error: init.js waits");
        assertFalse(syntax.log().contains("init.js ran"), tail(syntax.log()));
        Run field = inProcess(config, "-c", "values where size_kib > 0 show count()", dump);
        assertEquals(0, field.exit(), field.log());
        assertTrue(field.log().contains("init.js ran"), "the query ran init.js: " + field.log());
        assertFalse(field.log().contains("error"), field.log());
        Run fields = inProcess(config, "-c", "fields values", dump);
        assertTrue(fields.log().contains("init.js ran"), "fields ran init.js: " + fields.log());
        assertTrue(fields.log().contains("size_kib"), "fields lists what init.js defined: " + fields.log());

        Files.writeString(init, "let a = 1;\nnot valid(\n");
        Run broken = bufq(config, "-c", "summary", dump);
        assertEquals(0, broken.exit(), tail(broken.log()));
        assertFalse(broken.log().contains("init.js"), "a run that needs no script never reads it: " + tail(broken.log()));
        Run needed = inProcess(config, "-c", "values where size_kib > 0", dump);
        assertTrue(needed.log().contains(init + ":2:"), "reported with file and line when first needed: " + needed.log());
        assertTrue(needed.log().contains("'size_kib'"), needed.log());
    }

    /** The control: a run that needs the engine loads its classes, so the checks that none load can fail. */
    @Test
    void jsLoadsTheEngineAndInitJsRuns(@TempDir Path config) throws Exception {
        Files.createDirectories(config.resolve("bufq"));
        Files.writeString(config.resolve("bufq/init.js"), "var fromInit = 40;\n");
        Run r = bufq(config, "-c", "js fromInit + 2");
        assertEquals(0, r.exit(), r.log());
        assertTrue(r.log().contains(" org.graalvm.polyglot.Context"), "the engine started");
        assertTrue(r.log().lines().anyMatch(l -> l.equals("42")), "init.js ran before -c: " + tail(r.log()));
        Run skipped = inProcess(config, "--no-init", "-c", "js typeof fromInit");
        assertEquals(0, skipped.exit(), skipped.log());
        assertTrue(skipped.log().lines().anyMatch(l -> l.equals("undefined")), skipped.log());
    }

    @Test
    void brokenInitJsIsReportedAndTheSessionGoesOn(@TempDir Path config) throws Exception {
        Files.createDirectories(config.resolve("bufq"));
        Files.writeString(config.resolve("bufq/init.js"), "let a = 1;\nnot valid(\n");
        Run r = inProcess(config, "-c", "js 6 * 7");
        assertTrue(r.log().contains(config.resolve("bufq/init.js") + ":2:"), r.log());
        assertTrue(r.log().lines().anyMatch(l -> l.equals("42")), r.log());
    }

    private static String tail(String log) {
        List<String> l = log.lines().filter(x -> !x.startsWith("[")).toList();
        return String.join("\n", l.subList(Math.max(0, l.size() - 20), l.size()));
    }
}
