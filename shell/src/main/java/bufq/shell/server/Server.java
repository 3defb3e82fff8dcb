package bufq.shell.server;

import bufq.shell.Bufq;
import bufq.shell.DefaultEngine;
import bufq.shell.Env;
import bufq.shell.ModuleCache;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The resident bufq process ({@code bufq --server start}): it runs batch invocations handed over
 * by {@link Client} in a JVM that is already started and compiled, and keeps the modules it parsed
 * ({@link ModuleCache}), so that a second query on the same dump does not read it again.
 *
 * <p>Each run gets its own {@link Bufq}, {@link Env} (the client's environment and working
 * directory) and streams, exactly as a direct run would; runs take turns (one at a time). The
 * socket lives in a directory only this user can open. The server ends on {@code bufq --server
 * stop}, after {@code idle} without a request, or when a client of a newer build of the same
 * checkout connects (the jar was rebuilt).
 */
public final class Server implements AutoCloseable {
    private final Path socket;
    private final Duration idle;
    private final ServerSocketChannel listener;
    private final ModuleCache cache;
    private final String build = Wire.build(Server.class);
    private final ReentrantLock turn = new ReentrantLock(true);
    private final long started = System.nanoTime();
    private volatile long lastRequest = System.nanoTime();
    private volatile boolean closed;
    private volatile int runs;
    private final Thread acceptor;
    private final Object done = new Object();

    private Server(Path socket, Duration idle, long cacheBudget) throws IOException {
        this.socket = socket;
        this.idle = idle;
        this.cache = new ModuleCache(cacheBudget);
        Path dir = socket.getParent();
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        if (!Wire.isPrivate(dir))
            throw new IOException(dir + " is writable by other users or not owned by " + System.getProperty("user.name")
                    + "; remove it or point bufq.server.socket elsewhere");
        if (Files.exists(socket)) {
            if (alive(socket)) throw new IOException("a server is already listening on " + socket);
            Files.deleteIfExists(socket);   // left by a server that died
        }
        listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(socket));
        acceptor = new Thread(this::accept, "bufq-server-accept");
        acceptor.start();
        if (!idle.isZero()) {
            Thread watch = new Thread(this::watchIdle, "bufq-server-idle");
            watch.setDaemon(true);
            watch.start();
        }
    }

    /** Starts a server listening on {@code socket}; {@code idle} zero never times out. */
    public static Server start(Path socket, Duration idle, long cacheBudget) throws IOException {
        return new Server(socket, idle, cacheBudget);
    }

    public Path socket() { return socket; }

    /** Whether a server answers on {@code socket}. */
    static boolean alive(Path socket) {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public static void main(String[] args) {
        Path socket = Wire.socket();
        Duration idle = Duration.ofMinutes(60);
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--idle") && i + 1 < args.length) idle = Duration.ofMinutes(Long.parseLong(args[++i]));
        }
        Server s;
        try {
            s = start(socket, idle, Runtime.getRuntime().maxMemory() / 2);
        } catch (IOException e) {
            System.err.println("bufq server: " + e.getMessage());
            System.exit(2);
            return;
        }
        warmUp(System.getenv("BUFQ_HOME"), WARM_UP_NANOS);
        log("listening on " + socket + " (pid " + ProcessHandle.current().pid() + ", heap "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MB, idle limit " + idle.toMinutes() + " min)");
        Runtime.getRuntime().addShutdownHook(new Thread(s::close));
        s.awaitClose();
        log("stopped");
        System.exit(0);
    }

    /**
     * How long the warm-up may read the examples; it also stops when the first run arrives. The
     * first read of the 28 MB module after 1.5 s of warm-up took 560-760 ms of CPU, after 3 s
     * 430-530, after 6 s 350-410 (the compiler keeps finding work for a while).
     */
    private static final long WARM_UP_NANOS = 8_000_000_000L;
    /** Runs started in this JVM: the warm-up stops when one starts, since the run needs the cores. */
    private static final java.util.concurrent.atomic.AtomicLong runsStarted = new java.util.concurrent.atomic.AtomicLong();

    /** What {@code --server status} says of the warm-up: the harness waits for it before timing a first read. */
    private static volatile String warmUpState = "none (no examples)";

    /**
     * Runs a few batch commands on the bundled example dumps over and over, on a thread of its own
     * at the lowest priority, so that the reader, the queries and the formatters are compiled
     * before the first run arrives (a first read of a 28 MB module right after start took 0.8 s,
     * against 0.2-0.3 s once compiled). Nothing is kept: the runs use no module cache and their
     * output goes nowhere.
     */
    /** @return the warm-up's thread, or null when there is nothing to warm up on */
    static Thread warmUp(String home, long nanos) {
        if (home == null) return null;
        Path examples = Path.of(home, "examples");
        if (!Files.isDirectory(examples)) return null;
        String[][] commands = {
                {"-c", "summary", "."},
                {"-c", "peak", "jax-mlp"},
                {"-c", "values where live at peak order by size desc limit 20 show name, size, shape, op_name", "."},
                {"--format", "csv", "-c", "values where name ~ \"fusion\" show name, size, offset", "."},
        };
        Env env = new Env(Map.of("BUFQ_HOME", home), false, true, examples);
        PrintStream nowhere = new PrintStream(java.io.OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        warmUpState = "running";
        Thread t = new Thread(() -> {
            long start = System.nanoTime(), end = start + nanos, before = runsStarted.get();
            int i = 0;
            for (; System.nanoTime() < end && runsStarted.get() == before; i++) {
                int code;
                try {
                    code = batch(env, null).run(commands[i % commands.length], InputStream.nullInputStream(), nowhere, nowhere);
                } catch (RuntimeException e) {
                    code = -1;
                }
                if (code != 0) {
                    warmUpState = "stopped: '" + String.join(" ", commands[i % commands.length]) + "' on " + examples + " failed";
                    log("warm-up " + warmUpState);
                    return;
                }
            }
            // The warm-up's garbage fills the young generation: collected now (the heap is small, a
            // few tens of ms), not by the collection it would force in the middle of a user's first
            // read (146 ms there, copying the half-read module as well).
            if (runsStarted.get() == before) System.gc();
            warmUpState = (runsStarted.get() != before ? "cut short by the first run" : "done") + " (" + i + " runs on the examples in "
                    + (System.nanoTime() - start) / 100_000_000 / 10.0 + " s)";
        }, "bufq-server-warmup");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
        return t;
    }

    /** bufq for one batch run in {@code env}, reading modules through {@code cache} (null: none); no REPL here. */
    private static Bufq batch(Env env, ModuleCache cache) {
        return Bufq.withEngine(env, e -> new DefaultEngine(e.base(), cache), in -> {
            throw new IllegalStateException("the server runs no interactive sessions");
        });
    }

    private static void log(String line) {
        System.err.println(java.time.LocalDateTime.now().withNano(0) + " bufq server: " + line);
    }

    public void awaitClose() {
        synchronized (done) {
            while (!closed) {
                try {
                    done.wait();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Stops listening and removes the socket; a run under way finishes first (up to 10 s). */
    @Override public void close() {
        if (closed) return;
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            Files.deleteIfExists(socket);
        } catch (IOException ignored) {
            // a stale socket is cleaned up by the next server
        }
        try {
            if (turn.tryLock(10, TimeUnit.SECONDS)) turn.unlock();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (done) {
            done.notifyAll();
        }
    }

    private void accept() {
        while (!closed) {
            SocketChannel ch;
            try {
                ch = listener.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (closed) return;
                log("accept failed: " + e.getMessage());
                continue;
            }
            Thread t = new Thread(() -> serve(ch), "bufq-server-conn");
            t.setDaemon(true);
            t.start();
        }
    }

    private void watchIdle() {
        while (!closed) {
            try {
                Thread.sleep(Math.min(30_000, Math.max(1, idle.toMillis() / 4)));
            } catch (InterruptedException e) {
                return;
            }
            if (!turn.isLocked() && System.nanoTime() - lastRequest > idle.toNanos()) {
                log("idle for " + idle.toMinutes() + " min, stopping");
                close();
            }
        }
    }

    private void serve(SocketChannel ch) {
        try (ch) {
            DataInputStream from = new DataInputStream(new BufferedInputStream(Wire.in(ch), 1 << 16));
            DataOutputStream to = new DataOutputStream(new BufferedOutputStream(Wire.out(ch), 1 << 16));
            Wire.Request req;
            try {
                req = Wire.Request.read(from);
            } catch (IOException e) {
                return;   // a liveness probe, or not a client of ours
            }
            lastRequest = System.nanoTime();
            Frames frames = new Frames(to);
            if (!req.build().equals(build)) {
                frames.send(Wire.REFUSED, ("server runs " + build).getBytes(StandardCharsets.UTF_8));
                if (sameJar(req.build(), build)) {
                    log("the jar was rebuilt (client " + req.build() + "), stopping");
                    new Thread(this::close, "bufq-server-stop").start();
                }
                return;
            }
            switch (req.kind()) {
                case "status" -> frames.exit(status(), 0);
                case "stop" -> {
                    frames.exit("bufq: server stopped (pid " + ProcessHandle.current().pid() + ")\n", 0);
                    new Thread(this::close, "bufq-server-stop").start();
                }
                case "run" -> run(req, from, frames);
                default -> frames.exit("bufq: unknown request '" + req.kind() + "'\n", Bufq.USAGE);
            }
        } catch (IOException e) {
            // the client went away; nothing to tell it
        }
    }

    private static boolean sameJar(String a, String b) {
        int i = a.lastIndexOf('@'), j = b.lastIndexOf('@');
        return i > 0 && j > 0 && a.substring(0, i).equals(b.substring(0, j));
    }

    private String status() {
        Runtime rt = Runtime.getRuntime();
        long up = (System.nanoTime() - started) / 1_000_000_000L;
        return "bufq server: running, pid " + ProcessHandle.current().pid() + ", up " + up / 3600 + "h" + (up / 60) % 60 + "m"
                + up % 60 + "s, " + runs + " run" + (runs == 1 ? "" : "s") + "\n"
                + "  socket: " + socket + "\n"
                + "  modules: " + cache.describe() + "\n"
                + cache.list().stream().map(l -> "    " + l + "\n").collect(java.util.stream.Collectors.joining())
                + "  warm-up: " + warmUpState + "\n"
                + "  heap: " + (rt.totalMemory() - rt.freeMemory()) / (1 << 20) + " MB used of " + rt.maxMemory() / (1 << 20) + " MB\n"
                + "  stops after " + (idle.isZero() ? "no idle limit" : idle.toMinutes() + " min without a request") + "\n";
    }

    private void run(Wire.Request req, DataInputStream from, Frames frames) throws IOException {
        RemoteInput stdin = new RemoteInput(frames);
        int[] code = {Bufq.FAILED};
        Path cwd = Path.of(req.cwd());
        Env env = new Env(req.env(), false, req.stdinClosed(), cwd);
        PrintStream out = new PrintStream(new BufferedOutputStream(frames.stream(Wire.OUT), 1 << 16), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new BufferedOutputStream(frames.stream(Wire.ERR), 1 << 16), true, StandardCharsets.UTF_8);
        Thread worker = new Thread(() -> {
            try {
                // Runs take turns; a client that hangs up while waiting gives up its turn.
                if (!turn.tryLock(2, TimeUnit.SECONDS)) {
                    err.println("bufq: the server is busy with another run; waiting (BUFQ_NO_SERVER=1 runs without it)");
                    turn.lockInterruptibly();
                }
            } catch (InterruptedException e) {
                return;
            }
            try {
                runs++;
                runsStarted.incrementAndGet();   // the warm-up, if still going, stops
                code[0] = batch(env, cache).run(req.argv(), stdin, out, err);
            } catch (OutOfMemoryError e) {
                cache.clear();
                err.println("bufq: out of memory in the server; its parsed modules were dropped (BUFQ_JAVA_OPTS=-Xmx... before 'bufq --server start' gives it more)");
            } finally {
                out.flush();
                err.flush();
                lastRequest = System.nanoTime();
                turn.unlock();
            }
        }, "bufq-server-run");
        worker.start();
        // Read stdin frames until the run ends; the client hanging up (Ctrl-C) cancels the run.
        Thread reader = new Thread(() -> {
            try {
                while (true) {
                    int n = from.readInt();
                    if (n < 0) {
                        stdin.end();
                        continue;
                    }
                    byte[] b = new byte[n];
                    from.readFully(b);
                    stdin.offer(b);
                }
            } catch (IOException e) {
                stdin.end();
                if (worker.isAlive()) worker.interrupt();
            }
        }, "bufq-server-stdin");
        reader.setDaemon(true);
        reader.start();
        try {
            worker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        frames.exit("", code[0]);
    }

    /** Frames written to one client; output of both streams and control frames, one at a time. */
    private static final class Frames {
        static final int MAX_FRAME = 1 << 16;

        private final DataOutputStream to;

        Frames(DataOutputStream to) { this.to = to; }

        synchronized void send(byte type, byte[] b) throws IOException {
            send(type, b, 0, b.length);
        }

        synchronized void send(byte type, byte[] b, int off, int len) throws IOException {
            to.writeByte(type);
            to.writeInt(len);
            to.write(b, off, len);
            to.flush();
        }

        synchronized void exit(String text, int code) throws IOException {
            if (!text.isEmpty()) send(Wire.OUT, text.getBytes(StandardCharsets.UTF_8));
            send(Wire.EXIT, java.nio.ByteBuffer.allocate(4).putInt(code).array());
        }

        OutputStream stream(byte type) {
            return new OutputStream() {
                @Override public void write(int b) throws IOException { write(new byte[] {(byte) b}, 0, 1); }
                @Override public void write(byte[] b, int off, int len) throws IOException {
                    // At most 64 KB a frame: a 100 MB csv printed at once must not need 100 MB in the client.
                    for (int done = 0; done < len; done += MAX_FRAME) send(type, b, off + done, Math.min(MAX_FRAME, len - done));
                }
            };
        }
    }

    /** The client's stdin, asked for on the first read (a run with -c never takes the user's typing). */
    private static final class RemoteInput extends InputStream {
        private static final byte[] END = new byte[0];
        private final Frames frames;
        private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
        private boolean asked, ended;
        private byte[] cur = END;
        private int pos;

        RemoteInput(Frames frames) { this.frames = frames; }

        void offer(byte[] b) { if (b.length > 0) chunks.add(b); }

        void end() { chunks.add(END); }

        @Override public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override public synchronized int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) return 0;
            if (!asked) {
                asked = true;
                frames.send(Wire.NEED_INPUT, END);
            }
            while (pos == cur.length) {
                if (ended) return -1;
                try {
                    cur = chunks.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("cancelled");
                }
                pos = 0;
                if (cur == END) ended = true;
            }
            int n = Math.min(len, cur.length - pos);
            System.arraycopy(cur, pos, b, off, n);
            pos += n;
            return n;
        }
    }
}
