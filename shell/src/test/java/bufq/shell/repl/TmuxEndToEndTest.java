package bufq.shell.repl;

import bufq.testing.Corpus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real thing in a real pseudo-terminal: {@code ./bufq} on the bundled example inside tmux, Tab
 * completing {@code val} to {@code values}, a query printing a table, Ctrl-D leaving. Skips when
 * tmux is not installed ({@code .ci/run} installs it). The launcher runs the test class path
 * ({@code BUFQ_CLASSPATH}) because the jar is only packaged after the tests.
 */
@Tag("tmux")
@Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TmuxEndToEndTest {
    /**
     * How long one step may take. A step takes a few hundred milliseconds; the bound is for a loaded
     * machine, where a test should get slower, not fail.
     */
    static final long PATIENCE_S = 120;
    private static final AtomicInteger SERVERS = new AtomicInteger();

    @TempDir Path state;
    /** A tmux server of this test's own: a server the previous test killed may still be going away. */
    final String socket = "bufq-test-" + ProcessHandle.current().pid() + "-" + SERVERS.incrementAndGet();
    /** What the last tmux command printed, for the message when it fails. */
    String tmuxSaid = "";

    static boolean tmuxInstalled() {
        try {
            Process p = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    String tmux(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket, "-f", "/dev/null"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(PATIENCE_S, TimeUnit.SECONDS), "tmux " + String.join(" ", args));
        tmuxSaid = out;
        return p.exitValue() == 0 ? out : null;
    }

    String screen() throws IOException, InterruptedException {
        String s = tmux("capture-pane", "-p", "-t", "bufq");
        return s == null ? "" : s;
    }

    /**
     * The screen once it satisfies {@code test}, or the test fails naming {@code what} and showing the
     * screen. bufq runs in tmux, another process that offers nothing to wait on, so this checks the
     * screen every 100 ms; the pause only paces the checks, the condition decides, and
     * {@link #PATIENCE_S} is a bound far above the few hundred milliseconds a step takes.
     */
    String waitFor(String what, Predicate<String> test) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_S);
        String s = screen();
        while (!test.test(s)) {
            if (System.nanoTime() > deadline) fail("no " + what + " within " + PATIENCE_S + " s; the screen:\n" + s);
            Thread.sleep(100);
            s = screen();
        }
        return s;
    }

    static String quote(String s) { return "'" + s.replace("'", "'\\''") + "'"; }

    /** Kills this test's server and waits (bounded) until it answers no more, so none outlives its test. */
    @AfterEach
    void stopServer() throws IOException, InterruptedException {
        if (!tmuxInstalled()) return;
        tmux("kill-server");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_S);
        while (tmux("list-sessions") != null) {
            if (System.nanoTime() > deadline) fail("tmux server " + socket + " still up " + PATIENCE_S + " s after kill-server");
            Thread.sleep(100);
        }
    }

    /**
     * Starts {@code ./bufq} on the bundled example in tmux session "bufq" with {@code env} (e.g.
     * "TERM=dumb", or "") and waits for its prompt; "bufq exited N" is printed when it ends.
     */
    void startBufq(String env) throws IOException, InterruptedException {
        assumeTrue(tmuxInstalled(), "tmux not installed");
        Path root = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
        Path launcher = root.resolve("bufq");
        assumeTrue(Files.isExecutable(launcher), "launcher not found at " + launcher);
        String command = "cd " + quote(root.toString()) + " && env " + env
                + " BUFQ_CLASSPATH=" + quote(System.getProperty("java.class.path"))
                + " JAVA_HOME=" + quote(System.getProperty("java.home"))
                + " XDG_STATE_HOME=" + quote(state.toString()) + " HOME=" + quote(state.toString())
                + " ./bufq examples/seeds/004_0cb419b3147a3cb6.txt; echo bufq exited $?; sleep " + PATIENCE_S;
        assertNotNull(tmux("new-session", "-d", "-s", "bufq", "-x", "120", "-y", "40", command), () -> "tmux session: " + tmuxSaid);
        waitFor("prompt naming the module", x -> x.contains("bufq(004_0cb419b3147a3cb6)>"));
    }

    @Test
    void tabCompletesAndAQueryPrintsATable() throws IOException, InterruptedException {
        startBufq("");

        tmux("send-keys", "-t", "bufq", "val", "Tab");
        waitFor("Tab completing val to values", x -> x.contains("bufq(004_0cb419b3147a3cb6)> values"));

        tmux("send-keys", "-t", "bufq", "where size >= 16KiB order by size desc limit 2", "Enter");
        String s = waitFor("table of 2 rows", x -> x.contains("(2 rows)"));
        assertTrue(s.contains("label") && s.contains("Arg_1.2") && s.contains("32.0KiB"), s);

        tmux("send-keys", "-t", "bufq", "C-d");
        waitForFile(state.resolve("bufq/history"));
        assertEquals(List.of("values where size >= 16KiB order by size desc limit 2"),
                new HistoryFile(state.resolve("bufq/history")).load());
    }

    /**
     * The REPL's whole experience, at 80 columns on a module from the bench's generator (built with
     * {@code mvn -pl bench package}; skipped without it): 4 copies of transformer-12layer, 3,764
     * values and over 2,000 instruction names, not the 28 MB module (54 copies), which takes too long
     * to make in a test; both cut the completion list at 2,000 names. Tab after {@code live at }
     * inserts nothing (item 1); {@code peak} fits 80 columns and keeps op_name (item 9); the blame
     * tree buckets values without op_name and obeys maxrows (item 7).
     */
    @Test
    void aGeneratedModuleAtEightyColumns() throws IOException, InterruptedException {
        assumeTrue(tmuxInstalled(), "tmux not installed");
        Path root = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
        Path source = Corpus.require("jax-0.10.2/transformer-12layer");
        Path dump = state.resolve("generated");
        // The generator (a test dependency) runs in a JVM of its own: it ends with System.exit.
        Process gen = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "bufq.bench.Generate",
                "--source", source.toString(), "--values", "3000", "--format", "four", "--out", dump.toString())
                .redirectErrorStream(true).start();
        String said = new String(gen.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(gen.waitFor(PATIENCE_S, TimeUnit.SECONDS) && gen.exitValue() == 0, said);

        String command = "cd " + quote(root.toString()) + " && env"
                + " BUFQ_CLASSPATH=" + quote(System.getProperty("java.class.path"))
                + " JAVA_HOME=" + quote(System.getProperty("java.home"))
                + " XDG_STATE_HOME=" + quote(state.toString()) + " HOME=" + quote(state.toString())
                + " ./bufq " + quote(dump.toString()) + "; sleep " + PATIENCE_S;
        assertNotNull(tmux("new-session", "-d", "-s", "bufq", "-x", "80", "-y", "30", command), () -> "tmux session: " + tmuxSaid);
        waitFor("prompt", x -> x.contains("bufq(jit_step)>"));

        // item 1: the list is cut at 2,000 names, so Tab must not insert their common prefix
        tmux("send-keys", "-t", "bufq", "values where live at ", "Tab");
        String s = waitFor("the cut candidate list", x -> x.contains("possibilities") || x.contains("more (type more letters)"));
        if (s.contains("possibilities")) tmux("send-keys", "-t", "bufq", "n");
        s = waitFor("the line back", x -> x.lines().anyMatch(l -> l.startsWith("bufq(jit_step)> values where live at")));
        assertTrue(s.lines().anyMatch(l -> l.equals("bufq(jit_step)> values where live at")), "nothing inserted:\n" + s);
        tmux("send-keys", "-t", "bufq", "C-u");

        // item 9: peak fits 80 columns, keeping op_name: columns left out, or one field per line
        tmux("send-keys", "-t", "bufq", "peak", "Enter");
        s = waitFor("the peak table", x -> x.contains("value") && x.contains("op_name")
                && (x.contains(" left out") || x.contains("one field per line")));
        String joined = tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "bufq");
        String peak = joined.substring(joined.lastIndexOf("bufq(jit_step)> peak"));
        for (String line : peak.split("\n")) assertTrue(line.stripTrailing().length() <= 80, "wider than 80: " + line);

        // item 7: the tree's values without op_name share a leaf, and maxrows cuts it
        tmux("send-keys", "-t", "bufq", "set maxrows 8", "Enter");
        tmux("send-keys", "-t", "bufq", "blame", "Enter");
        s = waitFor("the blame tree", x -> x.contains("more lines of the tree"));
        joined = tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "bufq");
        String blame = joined.substring(joined.lastIndexOf("bufq(jit_step)> blame"));
        assertTrue(blame.contains("(no op_name"), blame);
        assertFalse(blame.lines().anyMatch(l -> l.matches(".*[├└]── copy\\.\\d+ .*")), "no row per copy: " + blame);
        tmux("send-keys", "-t", "bufq", "C-d");
    }

    /** TERM=dumb: no raw mode, so Ctrl-C is a SIGINT to the JVM; it must drop the line, not end bufq. */
    @Test
    void ctrlCOnADumbTerminalKeepsTheShell() throws IOException, InterruptedException {
        startBufq("TERM=dumb");
        tmux("send-keys", "-t", "bufq", "values where", "C-c");
        String prompt = "bufq(004_0cb419b3147a3cb6)>";
        waitFor("a new prompt after Ctrl-C", x -> x.indexOf(prompt) != x.lastIndexOf(prompt) || x.contains("bufq exited"));
        tmux("send-keys", "-t", "bufq", "values where size >= 16KiB show count()", "Enter");
        String s = waitFor("the query's answer after Ctrl-C", x -> x.contains("(1 row)") || x.contains("bufq exited"));
        assertFalse(s.contains("bufq exited"), s);
        assertTrue(s.contains("count()"), s);
        tmux("send-keys", "-t", "bufq", "C-d");
        assertTrue(waitFor("bufq leaving on Ctrl-D", x -> x.contains("bufq exited")).contains("bufq exited 0"), screen());
    }

    /** Waits for the exiting bufq (another process) to write {@code p}, checking as {@link #waitFor} does. */
    static void waitForFile(Path p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_S);
        while (!Files.exists(p)) {
            if (System.nanoTime() > deadline) fail("bufq wrote no history at " + p + " within " + PATIENCE_S + " s of Ctrl-D");
            Thread.sleep(100);
        }
    }
}
