package bufq.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher with the resident server, end to end as a user runs it: {@code ./bufq --server
 * start}, batch runs that go through the client and print what bufq's own JVM prints, {@code
 * --server status}, {@code --server stop}, and the launcher running bufq itself again. Lives in
 * this module because it needs the packaged jar, which the shell module's own tests run before.
 */
class LauncherServerTest {
    static final Path ROOT = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
    static final Path LAUNCHER = ROOT.resolve("bufq");
    static final Path JAR = ROOT.resolve("shell/target/bufq.jar");

    @TempDir Path tmp;
    Path runtime;

    record Run(int code, String out, String err) {}

    Run bufq(Map<String, String> env, String stdin, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of(LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        Path out = tmp.resolve("out"), err = tmp.resolve("err"), in = tmp.resolve("in");
        Files.writeString(in, stdin == null ? "" : stdin);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(ROOT.resolve("examples").toFile())
                .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        pb.environment().remove("BUFQ_NO_SERVER");
        pb.environment().putAll(env);
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "bufq " + String.join(" ", args) + " did not finish");
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @AfterEach void stopServer() throws Exception {
        if (runtime != null) bufq(Map.of(), null, "--server", "stop");
    }

    @Test void batchRunsGoThroughTheServerAndPrintTheSame() throws Exception {
        assumeTrue(Files.isRegularFile(JAR), "shell/target/bufq.jar is not built (run mvn verify)");
        runtime = Files.createDirectory(tmp.resolve("rt"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Map<String, String> direct = Map.of("BUFQ_NO_SERVER", "1");

        Run notRunning = bufq(Map.of(), null, "--server", "status");
        assertEquals(1, notRunning.code());
        assertTrue(notRunning.out().contains("not running"), notRunning.out());

        Run start = bufq(Map.of(), null, "--server", "start");
        assertEquals(0, start.code(), start.err());
        assertTrue(start.out().contains("bufq server: started"), start.out());

        String[][] runs = {
                {"-c", "summary", "jax-mlp"},
                {"--format", "csv", "-c", "values where live at peak order by size desc limit 3 show name, size", "jax-mlp"},
                {"-c", "values where bogus", "jax-mlp"},
                {"-c", "summary", "missing-dump"},
        };
        for (String[] args : runs) {
            Run viaServer = bufq(Map.of(), null, args), own = bufq(direct, null, args);
            assertEquals(own, viaServer, String.join(" ", args));
        }
        String piped = "summary\npeak\n";
        assertEquals(bufq(direct, piped, "jax-mlp"), bufq(Map.of(), piped, "jax-mlp"));

        Run status = bufq(Map.of(), null, "--server", "status");
        assertEquals(0, status.code());
        assertTrue(status.out().contains("bufq server: running"), status.out());
        assertTrue(status.out().contains("reuse"), status.out());
        assertFalse(status.out().contains(" 0 reuses"), "the second run on jax-mlp reused the module: " + status.out());

        Run stop = bufq(Map.of(), null, "--server", "stop");
        assertEquals(0, stop.code());
        assertTrue(stop.out().contains("server stopped"), stop.out());
        Run after = bufq(Map.of(), null, "-c", "summary", "jax-mlp");
        assertEquals(bufq(direct, null, "-c", "summary", "jax-mlp"), after);
        assertTrue(bufq(Map.of(), null, "--server", "status").out().contains("not running"));
    }
}
