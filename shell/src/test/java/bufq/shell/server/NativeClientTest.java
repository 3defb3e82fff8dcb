package bufq.shell.server;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The native client ({@code shell/src/native/bufq-client.c}) against {@link Client}, its reference:
 * both talk to a scripted fake server, which checks that they send the same request, and they must
 * print the same and exit the same for every answer a server can give, including the broken ones.
 * The C file is compiled here with {@code -Wall -Wextra -Werror}: a warning fails the build.
 */
class NativeClientTest {
    static final Path SOURCE = Path.of(System.getProperty("bufq.root", "..")).resolve("shell/src/native/bufq-client.c")
            .toAbsolutePath().normalize();
    static Path binary;

    @TempDir static Path built;
    @TempDir Path tmp;
    Path socket;
    FakeServer server;

    /** What a client printed and returned. */
    record Result(int code, String out, String err) {}

    /** What the fake server does with a connection after it has read the request. */
    interface Script {
        void play(Wire.Request req, DataInputStream from, DataOutputStream to) throws IOException;
    }

    @BeforeAll static void compile() throws Exception {
        String cc = compiler();
        assumeTrue(cc != null, "no C compiler (CC, cc or gcc on PATH): the launcher uses the Java client");
        binary = built.resolve("bufq-client");
        Process p = new ProcessBuilder(cc, "-O2", "-std=c11", "-D_GNU_SOURCE", "-pthread", "-Wall", "-Wextra", "-Werror",
                "-o", binary.toString(), SOURCE.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "bufq-client.c does not compile warning-free:\n" + log);
    }

    /** The compiler the launcher would take: $CC, else cc, else gcc; null when there is none. */
    static String compiler() {
        String cc = System.getenv("CC");
        if (cc != null && !cc.isBlank()) return cc;
        for (String name : List.of("cc", "gcc")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) return name;
            }
        }
        return null;
    }

    @AfterEach void stop() throws IOException {
        if (server != null) server.close();
        server = null;
    }

    /** A new directory only this user can open, as the launcher's socket directory is. */
    Path privateDir() throws IOException {
        return Files.createTempDirectory(tmp, "run", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    /** A fresh fake server (on a socket of its own) that plays {@code script}. */
    void serve(Script script) throws IOException {
        stop();
        socket = privateDir().resolve("s.sock");
        server = new FakeServer(socket, script);
    }

    /** The jar directory the Java client reports (shell/target), spelled through a symbolic link for the native one. */
    Path buildDir() throws Exception {
        Path dir = Path.of(Client.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent();
        Path link = tmp.resolve("target-link");
        if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) Files.createSymbolicLink(link, dir);
        return link;
    }

    static final Map<String, String> ENV = Map.of("NO_COLOR", "1", "HOME", "/nonexistent-home", "X", "a=b", "EMPTY", "",
            "UTF", "é");

    Result java(String stdin, String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = Client.run(socket, "run", argv, ENV, tmp, false,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), out, err);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Result nativeClient(String stdin, String... argv) throws Exception {
        return runNative(false, stdin, argv);
    }

    Result runNative(boolean closeStdin, String stdin, String... argv) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (closeStdin) cmd.addAll(List.of("/bin/bash", "-c", "exec \"$0\" \"$@\" <&-"));
        cmd.addAll(List.of(binary.toString(), socket.toString(), buildDir().toString(), "--"));
        cmd.addAll(Arrays.asList(argv));
        Path in = tmp.resolve("in"), out = tmp.resolve("out"), err = tmp.resolve("err");
        Files.writeString(in, stdin);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile())
                .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().clear();
        pb.environment().putAll(ENV);
        Process p = pb.start();
        finish(p);
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    static void finish(Process p) throws InterruptedException {
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("the native client did not finish");
        }
    }

    Result same(Script script) throws Exception {
        return same(script, "", "-c", "summary", "jax-mlp");
    }

    /** Both clients against the same script: same result, and the server saw the same two requests. */
    Result same(Script script, String stdin, String... argv) throws Exception {
        serve(script);
        Result j = java(stdin, argv), n = nativeClient(stdin, argv);
        assertEquals(j, n, "native client vs Client.java");
        List<Wire.Request> reqs = server.requests;
        if (!reqs.isEmpty()) {
            assertEquals(2, reqs.size());
            Wire.Request a = reqs.get(0), b = reqs.get(1);
            assertEquals(List.of(a.kind(), a.build(), a.cwd(), a.env(), a.stdinClosed(), List.of(a.argv())),
                    List.of(b.kind(), b.build(), b.cwd(), b.env(), b.stdinClosed(), List.of(b.argv())));
        }
        return n;
    }

    static void frame(DataOutputStream to, char type, byte[] b) throws IOException {
        to.writeByte(type);
        to.writeInt(b.length);
        to.write(b);
        to.flush();
    }

    static void frame(DataOutputStream to, char type, String s) throws IOException {
        frame(to, type, s.getBytes(StandardCharsets.UTF_8));
    }

    static void exit(DataOutputStream to, int code) throws IOException {
        frame(to, 'X', java.nio.ByteBuffer.allocate(4).putInt(code).array());
    }

    @Test void sendsTheJavaClientsRequestAndCopiesOutputAndExitCode() throws Exception {
        Result r = same((req, from, to) -> {
            frame(to, 'O', "argv " + String.join("|", req.argv()) + "\n");
            frame(to, 'E', "cwd " + req.cwd() + "\n");
            frame(to, 'O', "");
            frame(to, 'O', "x".repeat(1 << 16));
            exit(to, 3);
        }, "", "-c", "summary é", "", "jax-mlp");
        assertEquals(3, r.code());
        assertTrue(r.out().startsWith("argv -c|summary é||jax-mlp\n"), r.out());
        assertEquals("cwd " + tmp + "\n", r.err());
        Wire.Request req = server.requests.get(1);
        assertEquals("run", req.kind());
        assertEquals(ENV, req.env());
        assertFalse(req.stdinClosed());
        assertTrue(req.build().matches(".*/shell/target@\\d+"), "the jar's real directory: " + req.build());
    }

    @Test void sendsStdinAfterNeedInputWhileOutputFlows() throws Exception {
        String stdin = "summary\npeak\n" + "y".repeat(300_000) + "\n";
        Result r = same((req, from, to) -> {
            frame(to, 'O', "before input\n");
            frame(to, 'I', "");
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            for (int n; (n = from.readInt()) >= 0; ) got.write(from.readNBytes(n));
            frame(to, 'O', "read " + got.size() + " bytes, " + got.toString(StandardCharsets.UTF_8).lines().count() + " lines\n");
            exit(to, 0);
        }, stdin, "jax-mlp");
        assertEquals(new Result(0, "before input\nread 300014 bytes, 3 lines\n", ""), r);
    }

    @Test void fallsBackWhenTheServerRefusesOrHangsUpBeforeAnyOutput() throws Exception {
        assertEquals(new Result(200, "", ""), same((req, from, to) -> frame(to, 'R', "server runs another build")));
        assertEquals(new Result(200, "", ""), same((req, from, to) -> frame(to, 'I', "")));   // asked for input, then gone
    }

    @Test void fallsBackWithoutAServerOrInADirectoryOthersCanWrite() throws Exception {
        socket = privateDir().resolve("none.sock");
        assertEquals(new Result(200, "", ""), java(""));
        assertEquals(new Result(200, "", ""), nativeClient(""));

        // A socket file left by a server that died: nobody listens.
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket));
        }
        assertTrue(Files.exists(socket));
        assertEquals(new Result(200, "", ""), java(""));
        assertEquals(new Result(200, "", ""), nativeClient(""));

        // A live socket in a directory the group may write: not ours to trust, never connected to.
        Path shared = Files.createDirectory(tmp.resolve("shared"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwx---")));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwx---"));
        socket = shared.resolve("s.sock");
        server = new FakeServer(socket, (req, from, to) -> exit(to, 0));
        assertEquals(new Result(200, "", ""), java(""));
        assertEquals(new Result(200, "", ""), nativeClient(""));
        assertEquals(List.of(), server.requests);
    }

    @Test void aConnectionLostAfterOutputOrABrokenFrameIsAnErrorNotAFallback() throws Exception {
        Result lost = same((req, from, to) -> frame(to, 'O', "partial\n"));
        assertEquals(new Result(1, "partial\n", "bufq: lost the connection to the server (" + socket + ")\n"), lost);
        assertEquals(new Result(1, "", "bufq: server connection failed: unknown frame type 90\n"),
                same((req, from, to) -> frame(to, 'Z', "")));
        assertEquals(new Result(1, "", "bufq: server connection failed: bad frame length 2097152\n"), same((req, from, to) -> {
            to.writeByte('O');
            to.writeInt(2 << 20);
            to.flush();
        }));
    }

    @Test void aClosedStdinIsToldToTheServerAndNeverRead() throws Exception {
        serve((req, from, to) -> {
            frame(to, 'I', "");
            int n = from.readInt();
            frame(to, 'O', "closed " + req.stdinClosed() + ", first stdin frame " + n + "\n");
            exit(to, 0);
        });
        assertEquals(new Result(0, "closed true, first stdin frame -1\n", ""), runNative(true, "", "jax-mlp"));
    }

    @Test void keepsDrainingWhenStdoutsReaderIsGone() throws Exception {
        serve((req, from, to) -> {
            for (int i = 0; i < 64; i++) frame(to, 'O', "z".repeat(1 << 16));
            frame(to, 'E', "done\n");
            exit(to, 7);
        });
        Path err = tmp.resolve("err");
        Process p = new ProcessBuilder(binary.toString(), socket.toString(), buildDir().toString(), "--", "-c", "values")
                .redirectError(err.toFile()).start();
        p.getInputStream().close();   // `| head`: the reader is gone before the output comes
        finish(p);
        assertEquals(7, p.exitValue(), "exit code of the run, not a SIGPIPE death");
        assertEquals("done\n", Files.readString(err));
    }

    /** Accepts connections one after another, reads each request and plays the script. */
    static final class FakeServer implements AutoCloseable {
        final List<Wire.Request> requests = new CopyOnWriteArrayList<>();
        private final ServerSocketChannel listener;
        private final Thread thread;
        private volatile SocketChannel current;

        FakeServer(Path socket, Script script) throws IOException {
            listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            listener.bind(UnixDomainSocketAddress.of(socket));
            thread = new Thread(() -> {
                while (true) {
                    try (SocketChannel ch = listener.accept()) {
                        current = ch;
                        DataInputStream from = new DataInputStream(new BufferedInputStream(Wire.in(ch)));
                        DataOutputStream to = new DataOutputStream(new BufferedOutputStream(Wire.out(ch)));
                        Wire.Request req = Wire.Request.read(from);
                        requests.add(req);
                        script.play(req, from, to);
                        to.flush();
                    } catch (IOException e) {
                        if (!listener.isOpen()) return;
                    }
                }
            }, "fake-server");
            thread.setDaemon(true);
            thread.start();
        }

        @Override public void close() throws IOException {
            listener.close();
            SocketChannel ch = current;
            if (ch != null) ch.close();   // a client still waiting is let go
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
