package bufq.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The launcher with the resident server, end to end as a user runs it: {@code ./bufq --server
 * start}, batch runs that go through the client and print what bufq's own JVM prints, {@code
 * --server status}, {@code --server stop}, and the launcher running bufq itself again; each with
 * the native client ({@code shell/src/native/bufq-client.c}, which the launcher builds) and with
 * {@code BUFQ_CLIENT=java}. Lives in this module because it needs the packaged jar, which the
 * shell module's own tests run before.
 */
class LauncherServerTest {
    static final Path ROOT = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
    static final Path LAUNCHER = ROOT.resolve("bufq");
    static final Path JAR = ROOT.resolve("shell/target/bufq.jar");
    static final Path NATIVE = ROOT.resolve("shell/target/bufq-client");
    static final Path NATIVE_SOURCE = ROOT.resolve("shell/src/native/bufq-client.c");
    static final Map<String, String> DIRECT = Map.of("BUFQ_NO_SERVER", "1");

    @TempDir Path tmp;
    Path runtime;

    record Run(int code, String out, String err) {}

    /** Runs the launcher in examples/ with {@code stdin} as its input; null closes it ({@code <&-}). */
    Run bufq(Map<String, String> env, String stdin, String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>();
        if (stdin == null) cmd.addAll(List.of("/bin/bash", "-c", "exec \"$0\" \"$@\" <&-"));
        cmd.add(LAUNCHER.toString());
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
        if (runtime != null) bufq(Map.of(), "", "--server", "stop");
    }

    /** The client a test asks for: native needs a C compiler (the launcher then builds it), java always runs. */
    static Map<String, String> client(String kind) {
        if (kind.equals("native")) assumeTrue(compiler() != null, "no C compiler (CC, cc or gcc on PATH): the launcher uses the Java client");
        return Map.of("BUFQ_CLIENT", kind);
    }

    static String compiler() {
        String cc = System.getenv("CC");
        if (cc != null && !cc.isBlank()) return cc;
        for (String name : List.of("cc", "gcc")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) return name;
            }
        }
        return null;
    }

    Path privateRuntime() throws IOException {
        return Files.createDirectory(tmp.resolve("rt"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    void startServer() throws Exception {
        assumeTrue(Files.isRegularFile(JAR), "shell/target/bufq.jar is not built (run mvn verify)");
        if (runtime == null) runtime = privateRuntime();
        Run start = bufq(Map.of(), "", "--server", "start");
        assertEquals(0, start.code(), start.err());
        assertTrue(start.out().contains("bufq server: started"), start.out());
    }

    @ParameterizedTest(name = "{0} client") @ValueSource(strings = {"native", "java"})
    void batchRunsGoThroughTheServerAndPrintTheSame(String kind) throws Exception {
        Map<String, String> via = client(kind);
        assumeTrue(Files.isRegularFile(JAR), "shell/target/bufq.jar is not built (run mvn verify)");
        runtime = privateRuntime();
        Run notRunning = bufq(Map.of(), "", "--server", "status");
        assertEquals(1, notRunning.code());
        assertTrue(notRunning.out().contains("not running"), notRunning.out());
        startServer();

        Path script = tmp.resolve("script.bq");
        Files.writeString(script, "summary\nvalues where bogus\npeak\n");
        String[][] runs = {
                {"-c", "summary", "jax-mlp"},
                {"--format", "csv", "-c", "values where live at peak order by size desc limit 3 show name, size", "jax-mlp"},
                {"-c", "values where bogus", "jax-mlp"},
                {"-c", "summary", "missing-dump"},
                {"-f", script.toString(), "jax-mlp"},
        };
        for (String[] args : runs) {
            Run viaServer = bufq(via, "", args), own = bufq(DIRECT, "", args);
            assertEquals(own, viaServer, String.join(" ", args));
        }
        String piped = "summary\npeak\n";
        assertEquals(bufq(DIRECT, piped, "jax-mlp"), bufq(via, piped, "jax-mlp"));
        assertEquals(bufq(DIRECT, null, "jax-mlp"), bufq(via, null, "jax-mlp"), "stdin closed");
        assertEquals(bufq(DIRECT, null, "-c", "peak", "jax-mlp"), bufq(via, null, "-c", "peak", "jax-mlp"), "stdin closed");

        Path report = tmp.resolve("report.txt");
        String[] toFile = {"-c", "output " + report, "-c", "summary", "-c", "peak", "jax-mlp"};
        Run viaServer = bufq(via, "", toFile);
        String served = Files.readString(report);
        Files.delete(report);
        assertEquals(bufq(DIRECT, "", toFile), viaServer);
        assertEquals(Files.readString(report), served);
        assertTrue(served.contains("peak"), served);
        if (kind.equals("native")) assertTrue(Files.isExecutable(NATIVE), "the launcher built " + NATIVE);

        Run status = bufq(Map.of(), "", "--server", "status");
        assertEquals(0, status.code());
        assertTrue(status.out().contains("bufq server: running"), status.out());
        assertTrue(status.out().contains("reuse"), status.out());
        assertFalse(status.out().contains(" 0 reuses"), "the second run on jax-mlp reused the module: " + status.out());

        Run stop = bufq(Map.of(), "", "--server", "stop");
        assertEquals(0, stop.code());
        assertTrue(stop.out().contains("server stopped"), stop.out());
        Run after = bufq(via, "", "-c", "summary", "jax-mlp");
        assertEquals(bufq(DIRECT, "", "-c", "summary", "jax-mlp"), after);
        assertTrue(bufq(Map.of(), "", "--server", "status").out().contains("not running"));
    }

    @Test void theNativeClientIsBuiltOnFirstUseAndWhenItsSourceChanges() throws Exception {
        client("native");
        Path failed = NATIVE.resolveSibling("bufq-client.failed");
        Files.deleteIfExists(NATIVE);
        Files.deleteIfExists(failed);
        startServer();
        String[] args = {"-c", "summary", "jax-mlp"};
        Run direct = bufq(DIRECT, "", args);
        assertEquals(direct, bufq(Map.of(), "", args));
        assertTrue(Files.isExecutable(NATIVE), "built on first use: " + NATIVE);

        FileTime source = Files.getLastModifiedTime(NATIVE_SOURCE);
        Files.setLastModifiedTime(NATIVE, FileTime.fromMillis(source.toMillis() - 60_000));
        assertEquals(direct, bufq(Map.of(), "", args));
        assertTrue(Files.getLastModifiedTime(NATIVE).compareTo(source) > 0, "rebuilt: its source was newer");

        // No compiler: the Java client takes the run, and the build is not tried again on every run.
        Files.delete(NATIVE);
        Map<String, String> noCompiler = Map.of("CC", "/nonexistent/cc");
        assertEquals(direct, bufq(noCompiler, "", args));
        assertFalse(Files.exists(NATIVE));
        assertTrue(Files.exists(failed));
        Run insist = bufq(Map.of("CC", "/nonexistent/cc", "BUFQ_CLIENT", "native"), "", args);
        assertEquals(2, insist.code());
        assertTrue(insist.err().contains("BUFQ_CLIENT=native, but"), insist.err());
        Files.delete(failed);
        assertEquals(direct, bufq(Map.of(), "", args));
        assertTrue(Files.isExecutable(NATIVE));
    }

    @ParameterizedTest(name = "{0} client") @ValueSource(strings = {"native", "java"})
    void aServerOfAnotherBuildIsNotUsed(String kind) throws Exception {
        Map<String, String> via = client(kind);
        startServer();
        String[] args = {"-c", "summary", "jax-mlp"};
        assertEquals(bufq(DIRECT, "", args), bufq(via, "", args));
        if (kind.equals("native")) {
            // The client alone, told of a bufq.jar with another mtime: exit 200 and nothing printed.
            Path other = Files.createDirectory(tmp.resolve("other-build"));
            Files.copy(JAR, other.resolve("bufq.jar"));
            Files.setLastModifiedTime(other.resolve("bufq.jar"), FileTime.fromMillis(12_345_000));
            Path sock = Files.list(runtime.resolve("bufq")).filter(p -> p.toString().endsWith(".sock")).findFirst().orElseThrow();
            Process p = new ProcessBuilder(NATIVE.toString(), sock.toString(), other.toString(), "--", "-c", "summary", "jax-mlp")
                    .directory(ROOT.resolve("examples").toFile()).redirectOutput(tmp.resolve("o").toFile())
                    .redirectError(tmp.resolve("e").toFile()).start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(200, p.exitValue());
            assertEquals("", Files.readString(tmp.resolve("o")) + Files.readString(tmp.resolve("e")));
        }
        // The jar rebuilt (a new mtime): the client falls back, bufq runs itself with the same
        // output, and the server of the old build stops.
        long now = System.currentTimeMillis();
        Files.setLastModifiedTime(JAR, FileTime.fromMillis(Math.max(now, Files.getLastModifiedTime(JAR).toMillis() + 1000)));
        assertEquals(bufq(DIRECT, "", args), bufq(via, "", args));
        for (int i = 0; i < 50 && !bufq(Map.of(), "", "--server", "status").out().contains("not running"); i++) Thread.sleep(100);
        assertTrue(bufq(Map.of(), "", "--server", "status").out().contains("not running"), "the server of the old build stopped");
    }

    @ParameterizedTest(name = "{0} client") @ValueSource(strings = {"native", "java"})
    void ctrlCEndsTheRunWith130AndPublishesNoOutputFile(String kind) throws Exception {
        Map<String, String> via = client(kind);
        startServer();
        Path dir = Files.createDirectory(tmp.resolve("reports")), report = dir.resolve("report.txt");
        ProcessBuilder pb = new ProcessBuilder(LAUNCHER.toString(), "jax-mlp").directory(ROOT.resolve("examples").toFile())
                .redirectOutput(tmp.resolve("o").toFile()).redirectError(tmp.resolve("e").toFile());
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        pb.environment().remove("BUFQ_NO_SERVER");
        pb.environment().putAll(via);
        Process launcher = pb.start();
        // Statements on a stdin that stays open: the run waits inside its 'output' for more.
        OutputStream stdin = launcher.getOutputStream();
        stdin.write(("output " + report + "\nsummary\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        ProcessHandle clientProcess = null;
        boolean writing = false;
        for (int i = 0; i < 600 && (clientProcess == null || !writing); i++) {
            Thread.sleep(50);
            clientProcess = launcher.descendants().filter(h -> isClient(h, kind)).findFirst().orElse(null);
            try (var files = Files.list(dir)) {
                writing = files.anyMatch(f -> f.getFileName().toString().endsWith(".tmp"));
            }
        }
        assertTrue(clientProcess != null && writing, "the run did not start writing " + report);
        assertEquals(0, new ProcessBuilder("kill", "-INT", String.valueOf(clientProcess.pid())).start().waitFor());
        if (!launcher.waitFor(60, TimeUnit.SECONDS)) {
            launcher.destroyForcibly();
            fail("the launcher did not end after Ctrl-C");
        }
        assertEquals(130, launcher.exitValue(), Files.readString(tmp.resolve("e")));
        // Runs take turns: once this one is done, the cancelled run has ended too.
        assertEquals(0, bufq(via, "", "-c", "summary", "jax-mlp").code());
        assertFalse(Files.exists(report), "a cancelled run publishes no output file");
    }

    static boolean isClient(ProcessHandle h, String kind) {
        ProcessHandle.Info info = h.info();
        if (kind.equals("native")) return info.command().map(c -> c.endsWith("/bufq-client")).orElse(false);
        return info.arguments().map(a -> List.of(a).contains("bufq.shell.server.Client")).orElse(false);
    }
}
