package bufq.shell;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.channels.FileChannel;
import java.util.function.UnaryOperator;

/**
 * Where results go: the console, or a file that appears whole or not at all. A file sink writes to
 * a temporary file in the target's directory and moves it into place on {@link #close()}, so a
 * reader never sees half a result and a crash leaves the old file untouched. Without
 * {@code force} an existing file is never replaced, even one created while we were writing.
 */
public abstract sealed class OutputSink implements AutoCloseable permits OutputSink.Console, OutputSink.AtomicFile {
    public abstract void write(String text) throws IOException;

    /** Finishes the output; for a file, publishes it. Idempotent. */
    @Override public abstract void close() throws IOException;

    public abstract boolean isConsole();

    /** The target path, or null for the console. */
    public abstract Path target();

    public static OutputSink console(PrintStream out) { return new Console(out); }

    /** Opens a file sink; fails when {@code target} exists and {@code force} is false. */
    public static OutputSink file(Path target, boolean force) throws IOException {
        return file(target, force, UnaryOperator.identity());
    }

    /**
     * As {@link #file(Path, boolean)}, writing through {@code wrap(writer)}: tests pass a writer that
     * fails part-way, as a full disk does.
     */
    public static OutputSink file(Path target, boolean force, UnaryOperator<Writer> wrap) throws IOException {
        Path abs = target.toAbsolutePath().normalize();
        if (Files.isDirectory(abs)) throw new IOException(target + " is a directory");
        if (!force && Files.exists(abs)) throw new FileAlreadyExistsException(target.toString());
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) throw new IOException("no such directory: " + dir);
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
        return new AtomicFile(abs, tmp, force, wrap);
    }

    static final class Console extends OutputSink {
        private final PrintStream out;

        Console(PrintStream out) { this.out = out; }

        @Override public void write(String text) {
            out.print(text);
            out.flush();
        }

        @Override public void close() { out.flush(); }
        @Override public boolean isConsole() { return true; }
        @Override public Path target() { return null; }
    }

    static final class AtomicFile extends OutputSink {
        private final Path target;
        private final Path tmp;
        private final boolean force;
        private final Writer writer;
        private boolean closed;
        // A write failed (disk full): the temporary file is incomplete and must never be published.
        private IOException failed;

        AtomicFile(Path target, Path tmp, boolean force, UnaryOperator<Writer> wrap) throws IOException {
            this.target = target;
            this.tmp = tmp;
            this.force = force;
            this.writer = wrap.apply(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8));
        }

        @Override public void write(String text) throws IOException {
            if (failed != null) throw new IOException("writing " + target + " failed earlier (" + failed.getMessage() + ")");
            try {
                writer.write(text);
            } catch (IOException e) {
                failed = e;
                throw e;
            }
        }
        @Override public boolean isConsole() { return false; }
        @Override public Path target() { return target; }

        @Override public void close() throws IOException {
            if (closed) return;
            closed = true;
            try {
                try {
                    writer.close();
                } catch (IOException e) {
                    if (failed == null) failed = e;
                }
                if (failed != null) {
                    throw new IOException("writing " + target + " failed (" + failed.getMessage() + "); "
                            + (Files.exists(target) ? "the old file is left as it was" : "nothing was written"));
                }
                // On disk before the rename, so a power cut cannot publish an empty file.
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                    ch.force(true);
                }
                if (force) {
                    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } else {
                    // A hard link is created atomically and fails if the name is taken: no clobbering.
                    try {
                        Files.createLink(target, tmp);
                    } catch (UnsupportedOperationException e) {
                        if (Files.exists(target)) throw new FileAlreadyExistsException(target.toString());
                        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                    }
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
    }
}
