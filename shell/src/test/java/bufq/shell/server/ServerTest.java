package bufq.shell.server;

import bufq.shell.Bufq;
import bufq.shell.Env;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The resident server against direct runs: the same argv, environment and working directory give
 * the same stdout, stderr and exit code through {@link Client} and {@link Server} as through
 * {@link Bufq#run} in this JVM; parsed modules are reused only while their files are unchanged.
 */
class ServerTest {
    static final Path ROOT = Path.of(System.getProperty("bufq.root", ".."));
    static final Path EXAMPLE = ROOT.resolve("examples/jax-mlp").toAbsolutePath().normalize();

    @TempDir Path tmp;
    Path socket;
    Server server;
    final Map<String, String> vars = Map.of("NO_COLOR", "1", "HOME", "/nonexistent-home");

    @BeforeEach void start() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("run"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        socket = dir.resolve("s.sock");
        server = Server.start(socket, Duration.ZERO, 1L << 30);
    }

    @AfterEach void stop() {
        server.close();
    }

    record Result(int code, String out, String err) {}

    Result viaServer(Path cwd, String stdin, String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Client.run(socket, "run", argv, vars, cwd, stdin == null, in(stdin), out, err);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Result direct(Path cwd, String stdin, String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Env env = new Env(vars, false, stdin == null, cwd);
        int code = Bufq.withEngine(env, Bufq::defaultEngine, i -> { throw new AssertionError("no REPL"); })
                .run(argv, in(stdin), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static InputStream in(String s) {
        return new ByteArrayInputStream((s == null ? "" : s).getBytes(StandardCharsets.UTF_8));
    }

    String status() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, Client.run(socket, "status", new String[0], vars, tmp, true, in(null), out, new ByteArrayOutputStream()));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test void sameOutputAsADirectRunFromAnotherDirectory() {
        // Relative paths are the client's: the server's own working directory is elsewhere.
        Path cwd = EXAMPLE.getParent();
        String[][] runs = {
                {"-c", "summary", "jax-mlp"},
                {"--format", "markdown", "-c", "values where live at peak order by size desc limit 5 show name, size, shape", "jax-mlp"},
                {"-c", "peak", "-c", "timeline", "jax-mlp"},
                {"-c", "values where nonsense", "jax-mlp"},       // a bad query: exit 1 and a diagnostic
                {"-c", "summary", "no-such-dump"},                 // a load error: exit 3
                {"--nope"},                                        // a usage error: exit 2
        };
        for (String[] argv : runs) {
            Result d = direct(cwd, null, argv), s = viaServer(cwd, null, argv);
            assertEquals(d, s, String.join(" ", argv));
        }
        assertEquals(1, direct(cwd, null, "-c", "values where nonsense", "jax-mlp").code());
        assertEquals(3, direct(cwd, null, "-c", "summary", "no-such-dump").code());
    }

    /** One print of 300 KB arrives whole and in order (the server cuts it into frames of 64 KB). */
    @Test void aLargeOutputArrivesWhole() {
        String[] argv = {"-c", "js 'abcdefghij'.repeat(30000) + '|end'", "-c", "summary", "."};
        Result d = direct(EXAMPLE, null, argv), s = viaServer(EXAMPLE, null, argv);
        assertEquals(d, s);
        assertTrue(s.out().length() > 300_000 && s.out().contains("|end\n"), s.out().length() + " characters");
    }

    @Test void pipedStatementsAreSentWhenTheRunReadsThem() {
        String script = "summary\nvalues where live at peak show count()\n";
        Result d = direct(EXAMPLE, script, "."), s = viaServer(EXAMPLE, script, ".");
        assertEquals(d, s);
        assertTrue(s.out().contains("count"), s.out());
    }

    @Test void aParsedModuleIsReusedUntilItsFilesChange(@TempDir Path work) throws IOException {
        Path dump = work.resolve("d");
        Files.createDirectory(dump);
        try (var files = Files.list(EXAMPLE)) {
            for (Path f : files.toList()) Files.copy(f, dump.resolve(f.getFileName()));
        }
        Result first = viaServer(work, null, "-c", "summary", "d");
        assertEquals(0, first.code(), first.err());
        assertTrue(status().contains("0 reuses, 1 read"), status());
        assertEquals(first, viaServer(work, null, "-c", "summary", "d"));
        assertTrue(status().contains("1 reuse, 1 read"), status());
        assertTrue(status().lines().anyMatch(l -> l.startsWith("    jit_f  d/") && l.contains("(+3)") && l.contains("kB  used ")), status());
        // Named differently (the names are in the output): read again, not reused.
        assertEquals(0, viaServer(dump, null, "-c", "summary", ".").code());
        assertTrue(status().contains("1 reuse, 2 reads"), status());
        // A file rewritten: read again, and the new text is what the run sees.
        Path ba;
        try (var files = Files.list(dump)) {
            ba = files.filter(f -> f.getFileName().toString().endsWith("-buffer-assignment.txt")).findFirst().orElseThrow();
        }
        String text = Files.readString(ba);
        Files.writeString(ba, text.replaceFirst("(?m)^Total bytes used: \\d+", "Total bytes used: 1"));
        Files.setLastModifiedTime(ba, FileTime.fromMillis(Files.getLastModifiedTime(ba).toMillis() + 5000));
        Result changed = viaServer(work, null, "-c", "summary", "d");
        assertTrue(status().contains("1 reuse, 3 reads"), status());
        assertEquals(direct(work, null, "-c", "summary", "d"), changed);
    }

    @Test void noServerMeansFallBack(@TempDir Path other) throws IOException {
        Path dir = Files.createDirectory(other.resolve("p"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        assertEquals(Wire.FALLBACK, Client.run(dir.resolve("none.sock"), "run", new String[] {"--version"}, vars, tmp, true,
                in(null), new ByteArrayOutputStream(), new ByteArrayOutputStream()));
    }

    @Test void aSocketInAnOpenDirectoryIsNotTrusted() throws IOException {
        Files.setPosixFilePermissions(socket.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
        assertEquals(Wire.FALLBACK, Client.run(socket, "run", new String[] {"--version"}, vars, tmp, true,
                in(null), new ByteArrayOutputStream(), new ByteArrayOutputStream()));
        Files.setPosixFilePermissions(socket.getParent(), PosixFilePermissions.fromString("rwx------"));
        assertEquals(0, Client.run(socket, "run", new String[] {"--version"}, vars, tmp, true,
                in(null), new ByteArrayOutputStream(), new ByteArrayOutputStream()));
    }

    @Test void anotherBuildIsRefusedAndARebuiltJarStopsTheServer() throws Exception {
        String mine = Wire.build(Server.class);
        assertEquals(Wire.FALLBACK, rawRun(mine.replaceFirst("@.*", "") + "-other-checkout@1"));
        assertTrue(Server.alive(socket), "a client of another checkout does not stop the server");
        assertEquals(Wire.FALLBACK, rawRun(mine.replaceFirst("@\\d+$", "@1")));
        for (int i = 0; i < 100 && Files.exists(socket); i++) Thread.sleep(50);
        assertFalse(Files.exists(socket), "the same jar, rebuilt: the old server stops");
    }

    /** A run request with {@code build} as the client's; returns the exit code or FALLBACK on refusal. */
    int rawRun(String build) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            DataOutputStream to = new DataOutputStream(Wire.out(ch));
            new Wire.Request("run", build, tmp.toString(), vars, true, new String[] {"--version"}).write(to);
            DataInputStream from = new DataInputStream(Wire.in(ch));
            byte type = from.readByte();
            from.readFully(new byte[from.readInt()]);
            return type == Wire.REFUSED ? Wire.FALLBACK : -type;
        }
    }

    @Test void aClientThatHangsUpDoesNotStopTheServer() throws Exception {
        // A run waiting for stdin, and the client gone: the run sees the end of its input.
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            new Wire.Request("run", Wire.build(Client.class), EXAMPLE.toString(), vars, false, new String[] {"."})
                    .write(new DataOutputStream(Wire.out(ch)));
            DataInputStream from = new DataInputStream(Wire.in(ch));
            assertEquals(Wire.NEED_INPUT, from.readByte());
        }
        Result r = viaServer(EXAMPLE, null, "-c", "summary", ".");
        assertEquals(direct(EXAMPLE, null, "-c", "summary", "."), r);
    }

    @Test void stopRemovesTheSocket() throws Exception {
        assertTrue(status().contains("bufq server: running"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, Client.run(socket, "stop", new String[0], vars, tmp, true, in(null), out, new ByteArrayOutputStream()));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("server stopped"));
        server.awaitClose();
        assertFalse(Files.exists(socket));
        assertEquals(Wire.FALLBACK, Client.run(socket, "status", new String[0], vars, tmp, true, in(null),
                new ByteArrayOutputStream(), new ByteArrayOutputStream()));
    }

    @Test void theServerJvmKeepsCompiledCodeAndTheUsersHeapSize() {
        List<String> plain = ServerControl.jvmOptions(Map.of());
        assertTrue(plain.contains("-XX:PerMethodTrapLimit=0"), plain.toString());
        List<String> sized = ServerControl.jvmOptions(Map.of("BUFQ_JAVA_OPTS", "-Xmx3g"));
        assertTrue(sized.contains("-Xmx3g"), sized.toString());
        assertFalse(sized.stream().anyMatch(o -> o.startsWith("-Xms") || o.startsWith("-Xmn")),
                "BUFQ_JAVA_OPTS sizes the heap alone: " + sized);
    }

    @Test void theWarmUpRunsRealCommandsOnTheExamplesAndSaysWhenItIsDone() throws Exception {
        Path home = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
        Thread t = Server.warmUp(home.toString(), 300_000_000L);
        assertNotNull(t, "no examples under " + home);
        assertTrue(status().contains("warm-up: running") || status().contains("warm-up: done"), status());
        t.join(60_000);
        assertTrue(status().matches("(?s).*warm-up: done \\([1-9][0-9]* runs on the examples.*"), status());
        assertNull(Server.warmUp(tmp.toString(), 1), "a checkout without examples has nothing to warm up on");
    }
}
