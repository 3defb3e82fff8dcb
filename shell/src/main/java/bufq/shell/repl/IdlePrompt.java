package bufq.shell.repl;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The REPL's one idle mechanism: once the prompt has waited {@code idleMillis} with no key typed and
 * no statement running, it runs the idle work ({@code Shell.idle}: the current module's deferred
 * reads, the script engine's start, a pending init script, in that order) on a daemon thread. The
 * work asks {@link #stillIdle} between its steps: a key typed or a statement entered meanwhile stops
 * it there (a step already started goes on in the background), and the rest runs once the prompt is
 * idle again. A session that is busy, or a batch run (which has no prompt), never pays for it.
 */
final class IdlePrompt implements AutoCloseable {
    private final long idleNanos;
    private final Consumer<BooleanSupplier> work;
    private final Object lock = new Object();
    private boolean atPrompt;
    /** When the last prompt, key or statement came. */
    private long since;
    /** Counts prompts, keys and statements: the work is idle while this does not move. */
    private long activity;
    /** {@link #activity} when the work last started. */
    private long startedAt = -1;
    private boolean closed;
    private Thread waiter;

    /** @param work the idle work, given {@link #stillIdle} to ask between its steps */
    IdlePrompt(long idleMillis, Consumer<BooleanSupplier> work) {
        this.idleNanos = idleMillis * 1_000_000L;
        this.work = work;
    }

    /** The prompt is shown: the idle time counts from now. */
    void prompting() {
        synchronized (lock) {
            if (closed) return;
            atPrompt = true;
            touch();
            if (waiter == null) {
                waiter = new Thread(this::await, "bufq-idle-prompt");
                waiter.setDaemon(true);
                waiter.start();
            }
        }
    }

    /** A key changed the line at the prompt: the idle time counts from now, and running work stops at its next step. */
    void typing() {
        synchronized (lock) {
            if (atPrompt) touch();
        }
    }

    /** A statement runs: the prompt is not idle. */
    void busy() {
        synchronized (lock) {
            atPrompt = false;
            touch();
        }
    }

    /** Whether nothing happened at the prompt since the work started (the work stops between steps when not). */
    boolean stillIdle() {
        synchronized (lock) {
            return atPrompt && !closed && activity == startedAt;
        }
    }

    @Override public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }

    private void touch() {
        since = System.nanoTime();
        activity++;
        lock.notifyAll();
    }

    private void await() {
        while (true) {
            synchronized (lock) {
                try {
                    while (true) {
                        if (closed) return;
                        long left = atPrompt && startedAt != activity ? since + idleNanos - System.nanoTime() : Long.MAX_VALUE;
                        if (left <= 0) break;
                        if (left == Long.MAX_VALUE) lock.wait();
                        else lock.wait(Math.max(1, left / 1_000_000L));
                    }
                    startedAt = activity;
                } catch (InterruptedException e) {
                    return;
                }
            }
            work.accept(this::stillIdle);  // its steps are done once each: running it again goes on where it stopped
        }
    }
}
