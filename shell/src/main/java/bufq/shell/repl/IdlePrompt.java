package bufq.shell.repl;

/**
 * Runs an action once, on a daemon thread, after the prompt has waited {@code idleMillis} with no
 * statement running: the REPL starts the script engine this way, so the first {@code js} finds it
 * ready while a session that is busy, or a batch run (which has no prompt), never pays for it.
 */
final class IdlePrompt implements AutoCloseable {
    private final long idleNanos;
    private final Runnable action;
    private final Object lock = new Object();
    private boolean atPrompt;
    private long since;
    private boolean closed;
    private Thread waiter;

    IdlePrompt(long idleMillis, Runnable action) {
        this.idleNanos = idleMillis * 1_000_000L;
        this.action = action;
    }

    /** The prompt is shown: the idle time counts from now. */
    void prompting() {
        synchronized (lock) {
            if (closed) return;
            atPrompt = true;
            since = System.nanoTime();
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

    @Override public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }

    private void await() {
        synchronized (lock) {
            try {
                while (true) {
                    if (closed) return;
                    long left = atPrompt ? since + idleNanos - System.nanoTime() : Long.MAX_VALUE;
                    if (left <= 0) break;
                    if (left == Long.MAX_VALUE) lock.wait();
                    else lock.wait(Math.max(1, left / 1_000_000L));
                }
                closed = true;  // once
            } catch (InterruptedException e) {
                return;
            }
        }
        action.run();
    }
}
