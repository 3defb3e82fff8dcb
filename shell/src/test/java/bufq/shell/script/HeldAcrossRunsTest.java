package bufq.shell.script;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a script run leaves held counts against the same cap as the next run's: two runs that each
 * hold 176 MiB, under a 256 MiB cap, do not both fit (each run was given the cap anew, so 2 GiB
 * were held under 1 GiB). The session runs in a JVM of its own, with a small young generation, so
 * no other test's garbage or collections move what the watchdog measures: the margins (80 MiB
 * under the cap for one run, 96 MiB over it for two) are far past what the child's own start-up
 * leaves. The second run ends in a loop only the watchdog can stop, so what it is stopped for is
 * asserted, never how long it took; the time limit is only a net. The shell then goes on.
 */
class HeldAcrossRunsTest {
    private static final String HOLD = "globalThis.%s = []; for (let i = 0; i < 22; i++) %s.push(new Float64Array(1 << 20)); %s.length";

    @Test
    void runsInTurnCannotHoldMoreThanOneCap(@TempDir Path tmp) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xmx1g", "-Xmn32m", "-Dbufq.js.maxheap=" + (256L << 20),
                "-cp", System.getProperty("java.class.path"), "bufq.shell.cli.Main", "--format", "tsv",
                "-c", "set timeout 120",
                "-c", "js " + HOLD.formatted("first", "first", "first"),
                "-c", "js " + HOLD.formatted("second", "second", "second") + "; while (true) {}",
                "-c", "js 'after: ' + first.length",
                "-c", "values show count()",
                Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize()
                        .resolve("examples/seeds/004_0cb419b3147a3cb6.txt").toString());
        Path log = tmp.resolve("run.log"), err = tmp.resolve("run.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(log.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(900, TimeUnit.SECONDS), "the session ended");
        String out = Files.readString(log, StandardCharsets.UTF_8), errors = Files.readString(err, StandardCharsets.UTF_8);
        List<String> lines = out.lines().toList();
        assertTrue(lines.contains("22"), "one run holding 176 MiB fits the cap: " + out + errors);
        assertTrue(errors.contains("script stopped: it held more than 256 MiB of memory"), "the second run is stopped for memory: " + errors);
        assertEquals(1, errors.split("script stopped", -1).length - 1, "only the second run: " + errors);
        assertTrue(lines.contains("after: 22"), "the shell and the first run's globals survive: " + out);
        assertTrue(lines.size() >= 2 && lines.get(lines.size() - 1).matches("\\d+"), "a statement after it runs: " + out);
        assertEquals(1, p.exitValue(), "the stopped script fails the run: " + errors);
    }
}
