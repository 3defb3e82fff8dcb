package bufq.shell.run;

import bufq.shell.api.ScriptEngine;
import bufq.shell.session.CommandException;
import bufq.shell.session.OutputSink;
import bufq.shell.session.Printer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The user's init script ({@code init.js}), run on first need instead of at start, so a batch run
 * that needs no script never starts the script engine for it. It runs once, before the first of:
 * <ul>
 *   <li>a script ({@code js}, {@code run FILE.js}, {@code -f FILE.js});</li>
 *   <li>a statement that may depend on what it registers ({@link StatementRunner.Statement#usesScripts}): a query that
 *       names a field not known so far (it parses but does not check), and the commands that say
 *       so ({@code fields}, {@code check}, {@code advise}, {@code set tiling NAME} of a model not
 *       known, ...);</li>
 *   <li>an idle interactive prompt ({@link Shell#idle}): what it prints is shown above the prompt, and a
 *       statement entered meanwhile waits for it.</li>
 * </ul>
 * What a user sees of it is what an eager run shows: its output, and its errors with its own file and line.
 */
final class InitScript {
    /** The session's printer and its script engine (made on first use), from the shell. */
    private final Supplier<Printer> printer;
    private final Supplier<ScriptEngine> scripts;
    /** Deferred and not run yet. Guarded by this. */
    private boolean pending;
    /** The run in progress and its thread, or null. Guarded by this. */
    private CompletableFuture<Void> running;
    private Thread runner;
    /** Statements running (a script's inside the statement that runs it). Guarded by this. */
    private int statements;
    /** Output of a run at an idle prompt, on the thread running it; null otherwise. */
    private volatile Capture capture;

    private record Capture(Thread thread, PrintStream err, OutputSink out) {}

    InitScript(Supplier<Printer> printer, Supplier<ScriptEngine> scripts) {
        this.printer = printer;
        this.scripts = scripts;
    }

    synchronized void defer() { pending = true; }

    /**
     * Before a statement: waits for a run at an idle prompt (the statement and the script do not share the
     * session's settings and scripts at the same time). A statement that may depend on the script runs a
     * pending one itself ({@link #run}), once it is compiled. Until {@link #after}, no idle prompt starts
     * one. Each call is paired with one of {@link #after}.
     */
    void before() throws CommandException {
        boolean waitOnly;
        synchronized (this) {
            statements++;
            waitOnly = running != null && runner != Thread.currentThread();
        }
        if (waitOnly) run();
    }

    /** The statement {@link #before} was called for has ended. */
    synchronized void after() { statements--; }

    /**
     * Runs the script now if it is pending; waits for a run on another thread; returns at once when
     * called from the run itself (the script's own start of the engine asks first).
     */
    void run() throws CommandException {
        CompletableFuture<Void> mine;
        CompletableFuture<Void> other;
        synchronized (this) {
            if (runner == Thread.currentThread()) return;
            other = running;
            if (other == null) {
                if (!pending) return;
                pending = false;
                mine = running = new CompletableFuture<>();
                runner = Thread.currentThread();
            } else {
                mine = null;
            }
        }
        if (other != null) {
            await(other);
            return;
        }
        try {
            printer.get().outsideScript(() -> scripts.get().runInit());
        } finally {
            finish(mine);
        }
    }

    /**
     * Runs a pending script on the calling thread (an idle prompt's), capturing what it prints and
     * handing that to {@code show} before a statement waiting for it goes on.
     */
    void runIdle(Consumer<String> show) {
        CompletableFuture<Void> mine;
        synchronized (this) {
            if (!pending || running != null || statements > 0) return;  // a statement came first: it runs it if it needs it
            pending = false;
            mine = running = new CompletableFuture<>();
            runner = Thread.currentThread();
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream text = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        capture = new Capture(Thread.currentThread(), text, OutputSink.console(text));
        try {
            scripts.get().runInit();
        } catch (RuntimeException | LinkageError e) {
            printer.get().internalError(e);   // into the capture: shown like the script's own errors
        } finally {
            capture = null;
            text.flush();
            String shown = buffer.toString(StandardCharsets.UTF_8);
            try {
                if (!shown.isEmpty()) show.accept(shown);
            } finally {
                finish(mine);
            }
        }
    }

    private synchronized void finish(CompletableFuture<Void> mine) {
        running = null;
        runner = null;
        mine.complete(null);
    }

    private static void await(CompletableFuture<Void> run) throws CommandException {
        try {
            run.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandException(CommandException.CANCELLED);  // the run goes on; the next statement waits again
        } catch (ExecutionException e) {
            // the run reported its own failure
        }
    }

    /** Where a run at an idle prompt prints its messages, on its own thread; else null. */
    PrintStream capturedErr() {
        Capture c = capture;
        return c != null && c.thread() == Thread.currentThread() ? c.err() : null;
    }

    /** Where a run at an idle prompt prints its results, on its own thread; else null. */
    OutputSink capturedSink() {
        Capture c = capture;
        return c != null && c.thread() == Thread.currentThread() ? c.out() : null;
    }
}
