package bufq.shell.repl;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The REPL's one idle mechanism: each time the prompt has waited {@code idleMillis} with no statement
 * running, it runs the idle work ({@code Shell.idle}: the current module's deferred reads, the script
 * engine's start, a pending init script, in that order) on a daemon thread. The work asks
 * {@link #stillIdle} between its steps, so a statement entered meanwhile stops it there and the rest
 * waits for the next idle prompt; a session that is busy, or a batch run (which has no prompt), never
 * pays for it.
 */
final class IdlePrompt implements AutoCloseable {
    private final long idleNanos;
    private final Consumer<BooleanSupplier> work;
    private final Object lock = new Object();
    private boolean atPrompt;
    private long since;
    /** Counts prompts; the work runs once per prompt that stays idle. */
    private long prompts;
    private long ranAt;
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
            since = System.nanoTime();
            prompts++;
            if (waiter == null) {
                waiter = new Thread(this::await, "bufq-idle-prompt");
                waiter.setDaemon(true);
                waiter.start();
            }
            lock.notifyAll();
        }
    }

    /** A statement runs: the prompt is not idle. */
    void busy() {
        synchronized (lock) {
            atPrompt = false;
            lock.notifyAll();
        }
    }

    /** Whether the prompt still waits for input (the work stops between steps when not). */
    boolean stillIdle() {
        synchronized (lock) {
            return atPrompt && !closed;
        }
    }

    @Override public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }

    private void await() {
        while (true) {
            synchronized (lock) {
                try {
                    while (true) {
                        if (closed) return;
                        long left = atPrompt && ranAt != prompts ? since + idleNanos - System.nanoTime() : Long.MAX_VALUE;
                        if (left <= 0) break;
                        if (left == Long.MAX_VALUE) lock.wait();
                        else lock.wait(Math.max(1, left / 1_000_000L));
                    }
                    ranAt = prompts;
                } catch (InterruptedException e) {
                    return;
                }
            }
            work.accept(this::stillIdle);
        }
    }
}
