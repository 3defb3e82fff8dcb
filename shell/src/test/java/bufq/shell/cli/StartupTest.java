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
    /**
     * Issue 34: method-handle classes spun at run time are in no class-data archive and cost a
     * batch run about 2 ms each. String concatenation is compiled inline (the parent pom) and the
     * load compares no records with {@code equals}: a summary of the bundled example spun 75 of them
     * before, 8 after (the JDK's own lambdas).
     */
    @Test
    void aLoadSpinsFewMethodHandleClasses() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xshare:auto", "-Xlog:class+load=info", "-cp",
                System.getProperty("java.class.path"), "bufq.shell.cli.Main", "-c", "summary",
                CliTest.root().resolve("examples/jax-mlp").toString());
        pb.redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), log);
        assertTrue(log.contains("bufq.dump.ModuleReader"), "the dump was loaded: " + log.substring(0, Math.min(500, log.length())));
        assertFalse(log.contains(" java.lang.runtime.ObjectMethods "), "a record's equals, hashCode or toString ran on the load's path");
        long spun = log.lines().filter(l -> l.contains("java.lang.invoke.LambdaForm$MH/")).count();
        assertTrue(spun < 25, spun + " method-handle classes spun: string concatenation by invokedynamic?");
    }
}
