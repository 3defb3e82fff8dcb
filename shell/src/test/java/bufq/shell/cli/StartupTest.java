package bufq.shell.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The batch path must start fast: it may not load JLine or GraalVM classes (issue 4: under 0.7 s to
 * a prompt). Runs the real Main in a child JVM with class-load logging.
 */
class StartupTest {
    @Test
    void batchRunLoadsNeitherJLineNorGraal() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xshare:auto", "-Xlog:class+load=info", "-cp",
                System.getProperty("java.class.path"), "bufq.shell.cli.Main", "-c", "help", "-c", "set");
        pb.redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), log);
        assertTrue(log.contains("bufq.shell.cli.Bufq"), "class logging works: " + log.substring(0, Math.min(500, log.length())));
        for (String forbidden : List.of("org.jline", "org.graalvm", "com.oracle.truffle"))
            assertFalse(log.contains(" " + forbidden), forbidden + " classes were loaded on the batch path");
    }
}
