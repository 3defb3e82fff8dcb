package bufq.shell.session;

import bufq.dump.file.FileKind;
import bufq.model.HloModule;
import bufq.model.LoadWarning;
import bufq.model.PartReadException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The shell's reads of the Used values section a load left for first use: up front, before the
 * statement that needs them, with a progress line on a terminal for a big file and Ctrl-C (an
 * interrupt) stopping them as it stops a load; their warnings printed once, when the shell first
 * sees the part read; and, in the interactive shell, the current module's parts read in the
 * background while the prompt waits, printing nothing meanwhile.
 */
public final class DeferredReads {
    /** Files at least this big get a progress line while read on a terminal. */
    static final long PROGRESS_BYTES = 4L << 20;

    private final PrintStream err;
    private final Env env;
    private final long progressBytes;
    /** Modules whose read parts' warnings were printed (or printed with the load). */
    private final Set<HloModule> reported = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<HloModule, Background> background = new IdentityHashMap<>();

    /** A background read: its thread (to interrupt) and its end. */
    private record Background(Thread thread, CompletableFuture<Void> done) {}

    public DeferredReads(PrintStream err, Env env) {
        this(err, env, PROGRESS_BYTES);
    }

    /** @param progressBytes the size from which a file's read shows a progress line */
    public DeferredReads(PrintStream err, Env env, long progressBytes) {
        this.err = err;
        this.env = env;
        this.progressBytes = progressBytes;
    }

    /** A module's warnings were printed with its load: those of the parts it read then are printed. */
    public void loaded(HloModule m) {
        if (m.usedValues().isRead()) reported.add(m);
    }

    /**
     * Reads {@code m}'s Used values section if it is not read yet; waits for a background read of it
     * instead of starting another. The calling thread's interrupt (Ctrl-C) stops the read, and a background one
     * it waits for; nothing of a stopped read is kept.
     *
     * @throws PartReadException when the read fails or is stopped
     */
    public void read(HloModule m) throws PartReadException {
        if (m.usedValues().isRead()) return;
        Background b;
        synchronized (background) {
            b = background.get(m);
        }
        if (b != null) {
            try {
                b.done().get();
            } catch (InterruptedException e) {
                b.thread().interrupt();
                throw new PartReadException("cancelled", true);
            } catch (ExecutionException e) {
                // it failed: read again here, which reports why
            }
        }
        if (m.usedValues().isRead()) return;
        String what = progressLine(m);
        if (what != null) {
            err.print("\r" + what);
            err.flush();
        }
        try {
            m.usedValues().read();
        } finally {
            if (what != null) {
                err.print("\r\033[K");
                err.flush();
            }
        }
        reportNew(List.of(m));
    }

    /** Prints, once per module, the warnings of the parts read since its load (by any path). */
    public void reportNew(List<HloModule> modules) {
        for (HloModule m : modules) {
            if (m == null || !m.usedValues().isRead() || !reported.add(m)) continue;
            List<LoadWarning> w = m.usedValues().warnings();
            int shown = Math.min(w.size(), Modules.WARNINGS_SHOWN);
            for (int i = 0; i < shown; i++) err.println("bufq: warning: " + w.get(i));
            int more = m.usedValues().warningCount() - shown;
            if (more > 0) err.println("bufq: warning: " + more + " more warnings in " + m.handle());
        }
    }

    /**
     * Starts reading {@code m}'s Used values section on a background thread, unless one is running or
     * ran for it. It prints nothing: its warnings wait for {@link #reportNew}, and a failure is
     * reported by the statement that next needs the part and reads it again.
     */
    public void startInBackground(HloModule m) {
        if (m == null) return;
        if (m.usedValues().isRead()) return;
        synchronized (background) {
            if (background.containsKey(m)) return;
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    m.usedValues().read();
                    done.complete(null);
                } catch (PartReadException | RuntimeException e) {
                    done.completeExceptionally(e);
                }
            }, "bufq-background-read");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            background.put(m, new Background(t, done));
            t.start();
        }
    }

    /** The background read of {@code m}'s Used values section, or null when none started (tests wait on it). */
    public CompletableFuture<Void> backgroundRead(HloModule m) {
        synchronized (background) {
            Background b = background.get(m);
            return b == null ? null : b.done();
        }
    }

    /** "reading FILE (18.8 MB) ..." for a big values file on a terminal, else null. */
    private String progressLine(HloModule m) {
        if (!env.interactive()) return null;
        for (String f : m.info().files()) {
            Path p = Path.of(f);
            if (p.getFileName() == null || FileKind.of(p.getFileName().toString()) != FileKind.VALUES) continue;
            try {
                long size = Files.size(p);
                if (size < progressBytes) return null;
                return String.format(Locale.ROOT, "reading %s (%.1f MB) for op_name, uses and instructions ",
                        p.getFileName(), size / 1e6);
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }
}
