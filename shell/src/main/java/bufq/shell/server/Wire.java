package bufq.shell.server;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The protocol between {@link Client} and {@link Server}, over a Unix domain socket.
 *
 * <p>The client opens with a {@link Request}: magic, version, kind ({@code run}, {@code status},
 * {@code stop}), its jar and that jar's modification time (a server of another build refuses),
 * its working directory, its environment, whether its stdin was closed, and argv. The server then
 * sends frames: one type byte, an int length, the bytes. {@link #OUT} and {@link #ERR} carry
 * output, {@link #NEED_INPUT} asks for stdin the first time the run reads it, {@link #EXIT} ends
 * the run with an int exit code, {@link #REFUSED} says the server will not run this request (the
 * client then runs bufq itself). After {@link #NEED_INPUT} the client sends stdin as frames of an
 * int length and bytes, a negative length for end of input. The client closing its socket
 * cancels the run (Ctrl-C).
 *
 * <p>Kept free of the rest of bufq: the client loads only this class and {@link Client}.
 */
final class Wire {
    private Wire() {}

    static final int MAGIC = 0x62756671; // "bufq"
    static final int VERSION = 1;

    static final byte OUT = 'O', ERR = 'E', NEED_INPUT = 'I', EXIT = 'X', REFUSED = 'R';

    /** The exit code of a client that could not hand its run to a server: the launcher runs bufq itself. */
    static final int FALLBACK = 200;

    /** Strings are length-prefixed UTF-8: {@code writeUTF} stops at 64 KB, an environment variable may not. */
    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    static String readString(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > (64 << 20)) throw new IOException("bad string length " + n);
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * What a client asks for.
     *
     * @param kind        {@code run}, {@code status} or {@code stop}
     * @param build       the client's jar and its modification time; the server compares with its own
     */
    record Request(String kind, String build, String cwd, Map<String, String> env, boolean stdinClosed, String[] argv) {
        void write(DataOutputStream out) throws IOException {
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            writeString(out, kind);
            writeString(out, build);
            writeString(out, cwd);
            out.writeInt(env.size());
            for (Map.Entry<String, String> e : env.entrySet()) {
                writeString(out, e.getKey());
                writeString(out, e.getValue());
            }
            out.writeBoolean(stdinClosed);
            out.writeInt(argv.length);
            for (String a : argv) writeString(out, a);
            out.flush();
        }

        static Request read(DataInputStream in) throws IOException {
            if (in.readInt() != MAGIC) throw new IOException("not a bufq client");
            int v = in.readInt();
            if (v != VERSION) throw new IOException("protocol version " + v + ", expected " + VERSION);
            String kind = readString(in), build = readString(in), cwd = readString(in);
            int n = in.readInt();
            if (n < 0 || n > 100_000) throw new IOException("bad environment size " + n);
            Map<String, String> env = new java.util.HashMap<>();
            for (int i = 0; i < n; i++) env.put(readString(in), readString(in));
            boolean stdinClosed = in.readBoolean();
            int argc = in.readInt();
            if (argc < 0 || argc > 100_000) throw new IOException("bad argument count " + argc);
            String[] argv = new String[argc];
            for (int i = 0; i < argc; i++) argv[i] = readString(in);
            if (!Path.of(cwd).isAbsolute()) throw new IOException("working directory is not absolute: " + cwd);
            return new Request(kind, build, cwd, env, stdinClosed, argv);
        }
    }

    /**
     * The build a class was loaded from: the directory of its jar ({@code shell/target}, where the
     * client's own small jar sits beside {@code bufq.jar}) and the modification time of
     * {@code bufq.jar} there (0 for classes not yet packaged).
     */
    static String build(Class<?> c) {
        try {
            Path dir = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath().normalize().getParent();
            Path jar = dir.resolve("bufq.jar");
            long t = java.nio.file.Files.exists(jar) ? java.nio.file.Files.getLastModifiedTime(jar).toMillis() : 0;
            return dir + "@" + t;
        } catch (Exception e) {
            return "unknown";
        }
    }

    static void readFully(DataInputStream in, byte[] b) throws IOException {
        try {
            in.readFully(b);
        } catch (EOFException e) {
            throw new IOException("connection closed", e);
        }
    }

    /**
     * Where the server listens: the {@code bufq.server.socket} property (the launcher sets it:
     * {@code $XDG_RUNTIME_DIR/bufq} or {@code /tmp/bufq-UID}, one socket per checkout), else
     * {@code /tmp/bufq-USER/server.sock}.
     */
    static Path socket() {
        String p = System.getProperty("bufq.server.socket");
        if (p != null && !p.isEmpty()) return Path.of(p).toAbsolutePath();
        return Path.of(System.getProperty("java.io.tmpdir"), "bufq-" + System.getProperty("user.name"), "server.sock");
    }

    /**
     * Whether {@code dir} is a directory only this user can write: the socket in it is then ours.
     * A directory another user made (in /tmp, say) could hold their server, which would read our
     * environment and answer in our name.
     */
    static boolean isPrivate(Path dir) {
        try {
            String owner = java.nio.file.Files.getOwner(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName();
            if (!owner.equals(System.getProperty("user.name"))) return false;
            var perms = java.nio.file.Files.getPosixFilePermissions(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            return java.nio.file.Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    && !perms.contains(java.nio.file.attribute.PosixFilePermission.GROUP_WRITE)
                    && !perms.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE);
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Streams over a blocking socket channel that one thread may read while another writes.
     * {@code Channels.newInputStream/newOutputStream} share the channel's blocking lock: a read
     * waiting for the client's stdin would stop the run's output.
     */
    static java.io.InputStream in(java.nio.channels.SocketChannel ch) {
        return new java.io.InputStream() {
            @Override public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override public int read(byte[] b, int off, int len) throws IOException {
                if (len == 0) return 0;
                return ch.read(java.nio.ByteBuffer.wrap(b, off, len));
            }
        };
    }

    static java.io.OutputStream out(java.nio.channels.SocketChannel ch) {
        return new java.io.OutputStream() {
            @Override public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override public void write(byte[] b, int off, int len) throws IOException {
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b, off, len);
                while (buf.hasRemaining()) ch.write(buf);
            }
        };
    }
}
