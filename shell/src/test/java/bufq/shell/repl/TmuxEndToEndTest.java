package bufq.shell.repl;

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
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TmuxEndToEndTest {
    @TempDir Path state;
    final String socket = "bufq-test-" + ProcessHandle.current().pid();

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
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "tmux " + String.join(" ", args));
        return p.exitValue() == 0 ? out : null;
    }

    String screen() throws IOException, InterruptedException {
        String s = tmux("capture-pane", "-p", "-t", "bufq");
        return s == null ? "" : s;
    }

    /** Waits up to 30 s for the screen to satisfy {@code test}; returns the last screen seen. */
    String waitFor(Predicate<String> test) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String s = screen();
        while (!test.test(s) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            s = screen();
        }
        return s;
    }

    static String quote(String s) { return "'" + s.replace("'", "'\\''") + "'"; }

    @AfterEach
    void stopServer() throws IOException, InterruptedException {
        if (tmuxInstalled()) tmux("kill-server");
    }

    @Test
    void tabCompletesAndAQueryPrintsATable() throws IOException, InterruptedException {
        assumeTrue(tmuxInstalled(), "tmux not installed");
        Path root = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
        Path launcher = root.resolve("bufq");
        assumeTrue(Files.isExecutable(launcher), "launcher not found at " + launcher);
        String command = "cd " + quote(root.toString()) + " && env"
                + " BUFQ_CLASSPATH=" + quote(System.getProperty("java.class.path"))
                + " JAVA_HOME=" + quote(System.getProperty("java.home"))
                + " XDG_STATE_HOME=" + quote(state.toString()) + " HOME=" + quote(state.toString())
                + " ./bufq examples/seeds/004_0cb419b3147a3cb6.txt; sleep 30";
        assertNotNull(tmux("new-session", "-d", "-s", "bufq", "-x", "120", "-y", "40", command), "tmux session");

        String s = waitFor(x -> x.contains("bufq(004_0cb419b3147a3cb6)>"));
        assertTrue(s.contains("bufq(004_0cb419b3147a3cb6)>"), "prompt naming the module:\n" + s);

        tmux("send-keys", "-t", "bufq", "val", "Tab");
        s = waitFor(x -> x.contains(")> values"));
        assertTrue(s.contains("bufq(004_0cb419b3147a3cb6)> values"), "Tab completed val to values:\n" + s);

        tmux("send-keys", "-t", "bufq", "where size >= 16KiB order by size desc limit 2", "Enter");
        s = waitFor(x -> x.contains("(2 rows)"));
        assertTrue(s.contains("(2 rows)"), "a table:\n" + s);
        assertTrue(s.contains("label") && s.contains("Arg_1.2") && s.contains("32.0KiB"), s);

        tmux("send-keys", "-t", "bufq", "C-d");
        assertTrue(Files.exists(state.resolve("bufq/history")) || waitForFile(state.resolve("bufq/history")),
                "history written");
        assertEquals(List.of("values where size >= 16KiB order by size desc limit 2"),
                new HistoryFile(state.resolve("bufq/history")).load());
    }

    static boolean waitForFile(Path p) throws InterruptedException {
        for (int i = 0; i < 100 && !Files.exists(p); i++) Thread.sleep(100);
        return Files.exists(p);
    }
}
