package bufq.shell.server;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The thin client the launcher runs for batch runs while a {@link Server} is up: it hands argv,
 * environment, working directory and stdin to the server and copies back output and exit code.
 * A JVM that loads two classes starts in about 50 ms, where bufq's own start and class loading
 * take 100-150 ms, and the server has the dump already parsed or at least its code compiled.
 *
 * <p>Exits {@link Wire#FALLBACK} (200) when no server takes the run (none listening, another
 * build, a socket in a directory that is not private): the launcher then runs bufq itself.
 */
public final class Client {
    private Client() {}

    public static void main(String[] argv) {
        int code = run(Wire.socket(), "run", argv, System.getenv(), Path.of("").toAbsolutePath(),
                stdinReused(), System.in, System.out, System.err);
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /**
     * Runs {@code argv} on the server at {@code socket}.
     *
     * @return bufq's exit code, or {@link Wire#FALLBACK} when no server would take the run
     */
    public static int run(Path socket, String kind, String[] argv, Map<String, String> env, Path cwd, boolean stdinClosed,
                          InputStream in, OutputStream out, OutputStream err) {
        if (socket.getParent() == null || !Wire.isPrivate(socket.getParent()) || !Files.exists(socket)) return Wire.FALLBACK;
        SocketChannel ch;
        try {
            ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            return Wire.FALLBACK;   // a socket left by a server that died
        }
        try (ch) {
            DataOutputStream to = new DataOutputStream(new BufferedOutputStream(Wire.out(ch), 1 << 16));
            DataInputStream from = new DataInputStream(new java.io.BufferedInputStream(Wire.in(ch), 1 << 16));
            new Wire.Request(kind, Wire.build(Client.class), cwd.toString(), env, stdinClosed, argv).write(to);
            boolean wroteAnything = false;
            while (true) {
                int type;
                try {
                    type = from.readByte();
                } catch (IOException e) {
                    if (!wroteAnything) return Wire.FALLBACK;
                    err.write(("bufq: lost the connection to the server (" + socket + ")\n").getBytes());
                    err.flush();
                    return 1;
                }
                int n = from.readInt();
                if (n < 0 || n > (1 << 20)) throw new IOException("bad frame length " + n);
                byte[] b = new byte[n];
                Wire.readFully(from, b);
                switch (type) {
                    case Wire.OUT -> { out.write(b); wroteAnything = true; }
                    case Wire.ERR -> { err.write(b); wroteAnything = true; }
                    case Wire.NEED_INPUT -> pump(in, to);
                    case Wire.REFUSED -> { return Wire.FALLBACK; }
                    case Wire.EXIT -> {
                        out.flush();
                        err.flush();
                        return java.nio.ByteBuffer.wrap(b).getInt();
                    }
                    default -> throw new IOException("unknown frame type " + type);
                }
                // Output reaches the user as the server writes it: a long script shows progress.
                if (from.available() == 0) {
                    out.flush();
                    err.flush();
                }
            }
        } catch (IOException e) {
            PrintStream p = new PrintStream(err, true);
            p.println("bufq: server connection failed: " + e.getMessage());
            return 1;
        }
    }

    /** Copies stdin to the server on a thread of its own, so output keeps flowing while the server reads. */
    private static void pump(InputStream in, DataOutputStream to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[1 << 16];
            try {
                while (true) {
                    int r = in.read(buf);
                    synchronized (to) {
                        to.writeInt(r < 0 ? -1 : r);
                        if (r > 0) to.write(buf, 0, r);
                        to.flush();
                    }
                    if (r < 0) return;
                }
            } catch (IOException e) {
                // the run ended (socket closed) or stdin failed: the server sees the end either way
            }
        }, "bufq-stdin");
        t.setDaemon(true);
        t.start();
    }

    /**
     * When a JVM starts with stdin closed, its first opened file (its {@code lib/modules}, or a jar)
     * takes descriptor 0, and reading "stdin" would run binary garbage as commands. Linux only:
     * elsewhere, or when /proc is not there, stdin is taken for what it seems. The rule lives here,
     * in the client's two-class jar, and {@code Env} asks it for bufq's own JVM.
     */
    public static boolean stdinReused() {
        try {
            Path target = Files.readSymbolicLink(Path.of("/proc/self/fd/0"));
            String t = target.toString();
            String home = Path.of(System.getProperty("java.home")).toRealPath().toString();
            return t.startsWith(home + "/") || t.endsWith(".jar");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
