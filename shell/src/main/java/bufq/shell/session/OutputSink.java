package bufq.shell.session;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.function.UnaryOperator;

/**
 * Where results go: the console, or a file that appears whole or not at all. A file sink writes to
 * a temporary file in the target's directory and moves it into place on {@link #close()}, so a
 * reader never sees half a result and a crash leaves the old file untouched. Without
 * {@code force} an existing file is never replaced, even one created while we were writing.
 * Temporary files carry the writer's pid and host ({@link TempFiles}), so opening a file sink deletes
 * those of dead writers on this host in its directory.
 */
public abstract sealed class OutputSink implements AutoCloseable permits OutputSink.Console, OutputSink.AtomicFile {
    public abstract void write(String text) throws IOException;

    /** Finishes the output; for a file, publishes it. Idempotent. */
    @Override public abstract void close() throws IOException;

    public abstract boolean isConsole();

    /**
     * The sink as bytes, for binary files (a gzipped profile); text written before is flushed first.
     * Write through it, then close the sink (not the stream), which publishes the file.
     */
    public abstract OutputStream stream() throws IOException;

    /** Ends without publishing: a file sink removes its temporary file and leaves the target as it was. */
    public abstract void discard();

    /** The target path, or null for the console. */
    public abstract Path target();

    public static OutputSink console(PrintStream out) { return new Console(out); }

    /** Opens a file sink; fails when {@code target} exists and {@code force} is false. */
    public static OutputSink file(Path target, boolean force) throws IOException {
        return file(target, force, w -> w);
    }

    /** As {@link #file(Path, boolean)}, with the writer wrapped (tests simulate a full disk). */
    public static OutputSink file(Path target, boolean force, UnaryOperator<Writer> wrap) throws IOException {
        String shown = target.toString();
        if (shown.isEmpty()) throw new IOException("a file name is expected, not an empty one");
        // Absolute from here on: the temporary file and the rename happen in the target's own directory.
        Path abs = target.toAbsolutePath().normalize();
        if (Files.isDirectory(abs)) throw new IOException(shown + " is a directory");
        // Replacing a device, pipe or symlink by renaming over it would be wrong (/dev/stdout!).
        if ((Files.exists(abs) || Files.isSymbolicLink(abs)) && !Files.isRegularFile(abs, LinkOption.NOFOLLOW_LINKS))
            throw new IOException(shown + " is not a regular file");
        Path dir = abs.getParent();
        // Before the "exists" refusal: a killed run's temporary file goes even when this write is refused.
        if (dir != null && Files.isDirectory(dir)) TempFiles.removeDead(dir);
        if (!force && Files.exists(abs)) throw new FileAlreadyExistsException(shown);
        if (dir == null || !Files.isDirectory(dir)) throw new IOException("no such directory: " + dir);
        Path tmp;
        try {
            tmp = createTemporary(dir, abs);
        } catch (AccessDeniedException e) {
            // The exception names the temporary file, which the user never asked for.
            throw new IOException("directory " + dir + " is not writable");
        } catch (FileSystemException e) {
            throw new IOException("cannot create a file in " + dir + (e.getReason() == null ? "" : ": " + e.getReason()));
        }
        tmp.toFile().deleteOnExit(); // Ctrl-C in a batch run: no temporary file left behind, target untouched
        return new AtomicFile(abs, tmp, force, wrap);
    }

    /**
     * The temporary file beside {@code target}, made as the shell's {@code >} would make a file: with
     * the process's umask (Files.createTempFile makes it 0600, and the renamed file, pasted into a bug
     * report from a shared directory, could not be read by anyone else), or with the permissions of
     * the file it replaces.
     */
    private static Path createTemporary(Path dir, Path target) throws IOException {
        Path tmp = TempFiles.create(dir, target.getFileName().toString());
        if (Files.isRegularFile(target)) {
            try {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(target));
            } catch (UnsupportedOperationException | IOException ignored) {
                // not a POSIX file system, or not ours to read: the umask's permissions stay
            }
        }
        return tmp;
    }

    static final class Console extends OutputSink {
        private final PrintStream out;

        Console(PrintStream out) { this.out = out; }

        @Override public void write(String text) {
            out.print(text);
            out.flush();
        }

        @Override public void close() { out.flush(); }
        @Override public OutputStream stream() { return out; }
        @Override public void discard() { out.flush(); }
        @Override public boolean isConsole() { return true; }
        @Override public Path target() { return null; }
    }

    static final class AtomicFile extends OutputSink {
        private final Path target;
        private final Path tmp;
        private final boolean force;
        private final FileChannel channel;
        private final Writer writer;
        private boolean closed;
        private IOException failure;

        AtomicFile(Path target, Path tmp, boolean force, UnaryOperator<Writer> wrap) throws IOException {
            this.target = target;
            this.tmp = tmp;
            this.force = force;
            this.channel = FileChannel.open(tmp, StandardOpenOption.WRITE);
            this.writer = wrap.apply(Channels.newWriter(channel, StandardCharsets.UTF_8));
        }

        /** After one failed write (a full disk) every later write fails too, and the file is never published. */
        @Override public void write(String text) throws IOException {
            if (failure != null) throw new IOException("an earlier write to " + target + " failed", failure);
            try {
                writer.write(text);
            } catch (IOException e) {
                failure = e;
                throw e;   // the printer names the file
            }
        }

        @Override public boolean isConsole() { return false; }
        @Override public Path target() { return target; }

        @Override public void discard() {
            if (closed) return;
            closed = true;
            try {
                writer.close();
            } catch (IOException ignored) {
                // nothing to publish; the temporary file goes below
            }
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // deleteOnExit removes it at the latest
            }
        }

        /** Bytes straight to the temporary file; a failed write fails the sink as {@link #write} does. */
        @Override public OutputStream stream() throws IOException {
            write("");
            writer.flush();
            OutputStream raw = Channels.newOutputStream(channel);
            return new OutputStream() {
                @Override public void write(int b) throws IOException { write(new byte[] {(byte) b}, 0, 1); }

                @Override public void write(byte[] b, int off, int len) throws IOException {
                    if (failure != null) throw new IOException("an earlier write to " + target + " failed", failure);
                    try {
                        raw.write(b, off, len);
                    } catch (IOException e) {
                        failure = e;
                        throw e;
                    }
                }
            };
        }

        @Override public void close() throws IOException {
            if (closed) return;
            closed = true;
            try {
                if (failure != null) {
                    try {
                        writer.close();
                    } catch (IOException ignored) {
                        // already failed; the temporary file goes below
                    }
                    throw new IOException(target + " was not written: " + failure.getMessage(), failure);
                }
                // A statement cancelled with Ctrl-C ends without publishing a partial result. (The
                // channel would refuse anyway: an interrupted thread closes it.)
                if (Thread.currentThread().isInterrupted()) {
                    try {
                        writer.close();
                    } catch (IOException ignored) {
                        // closed by the interrupt already; the temporary file goes below
                    }
                    throw new IOException(target + " was not written: cancelled");
                }
                try {
                    // The last buffered bytes meet a full disk here, not in write().
                    writer.flush();
                    channel.force(true); // on disk before the name appears, so a crash cannot publish a torn file
                    writer.close();
                } catch (IOException e) {
                    failure = e;
                    try {
                        writer.close();
                    } catch (IOException ignored) {
                        // already failed; the temporary file goes below
                    }
                    throw new IOException(target + " was not written: " + e.getMessage(), e);
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
