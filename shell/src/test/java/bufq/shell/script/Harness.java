package bufq.shell.script;

import bufq.shell.cli.Bufq;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Engine;
import bufq.shell.session.Env;
import bufq.shell.run.Shell;
import bufq.shell.session.Status;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A shell on the real engine with in-memory streams, for script tests. */
final class Harness implements AutoCloseable {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final Watched err = new Watched();

    /** Bytes written by another thread (a running script), with a wait for what they say. */
    static final class Watched extends ByteArrayOutputStream {
        @Override public synchronized void write(int b) {
            super.write(b);
            notifyAll();
        }

        @Override public synchronized void write(byte[] b, int off, int len) {
            super.write(b, off, len);
            notifyAll();
        }

        /**
         * Blocks until {@code text} has been written: a script says it started with
         * {@code printErr(...)} instead of the test sleeping and hoping. The one-minute bound
         * only keeps a broken script from hanging the build.
         */
        synchronized void await(String text) throws InterruptedException {
            long until = System.currentTimeMillis() + 60_000;
            while (!toString(StandardCharsets.UTF_8).contains(text)) {
                long left = until - System.currentTimeMillis();
                if (left <= 0) throw new AssertionError("never written: " + text + "; got: " + toString(StandardCharsets.UTF_8));
                wait(left);
            }
        }
    }
    final Shell shell;

    Harness() { this(Map.of()); }

    Harness(Map<String, String> env) { this(new Env(env, false)); }

    /** A session with this environment ({@code new Env(Map.of(), true)}: on a terminal). */
    Harness(Env env) {
        shell = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env);
    }

    /** The checkout root (the parent pom sets bufq.root; falls back to the working directory's parent). */
    static Path root() {
        String r = System.getProperty("bufq.root");
        return r != null ? Path.of(r) : Path.of("").toAbsolutePath().getParent();
    }

    static Path seed(int n) {
        Path dir = root().resolve("examples/seeds");
        try (var s = java.nio.file.Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(String.format("%03d_", n))).findFirst().orElseThrow();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    Harness load(Path p) {
        try {
            shell.modules().load(List.of(p));
        } catch (Engine.Failure f) {
            throw new AssertionError(f.getMessage());
        }
        return this;
    }

    Status run(String line) { return shell.execute(line); }

    /** Runs and expects OK, returning what went to stdout. */
    String ok(String line) {
        clear();
        Status st = run(line);
        assertEquals(Status.OK, st, () -> "'" + line + "' failed: " + err());
        return out();
    }

    /** Runs and expects ERROR, returning what went to stderr. */
    String fails(String line) {
        clear();
        Status st = run(line);
        assertEquals(Status.ERROR, st, () -> "'" + line + "' should fail; out: " + out());
        return err();
    }

    String out() { return out.toString(StandardCharsets.UTF_8); }
    String err() { return err.toString(StandardCharsets.UTF_8); }

    void clear() {
        out.reset();
        err.reset();
    }

    @Override public void close() throws java.io.IOException { shell.close(); }
}
