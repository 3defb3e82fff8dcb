package bufq.shell.statement;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The time limit of one query ({@code set timeout}): when it passes, the thread running the query
 * is interrupted, the way Ctrl-C cancels one, so a regex that backtracks for ever stops too.
 * Closing it before the limit cancels the alarm; closing it after clears the interrupt it caused.
 */
public final class QueryDeadline implements AutoCloseable {
    /** One daemon thread for every session's alarms; it idles while none is set. */
    private static final class Alarms {
        static final ScheduledThreadPoolExecutor EXECUTOR = executor();

        private static ScheduledThreadPoolExecutor executor() {
            ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "bufq-query-deadline");
                t.setDaemon(true);
                return t;
            });
            e.setRemoveOnCancelPolicy(true);
            return e;
        }
    }

    private final String shown;
    private final Thread runner;
    private final ScheduledFuture<?> alarm;
    private boolean fired;
    private boolean closed;

    private QueryDeadline(Duration limit, String shown) {
        this.shown = shown;
        this.runner = Thread.currentThread();
        // Half a second late: a script field inside the query, under the same limit, stops first
        // and names its own line.
        this.alarm = limit.isZero() || limit.isNegative() ? null
                : Alarms.EXECUTOR.schedule(this::fire, limit.toMillis() + 500, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts the limit for a query run by the calling thread; zero: no limit.
     * @param shown the limit in seconds as the message names it ({@code 10}, {@code 0.5})
     */
    public static QueryDeadline start(Duration limit, String shown) { return new QueryDeadline(limit, shown); }

    private synchronized void fire() {
        if (closed) return;
        fired = true;
        runner.interrupt();
    }

    /** Whether the limit passed while the query ran. */
    public synchronized boolean expired() { return fired; }

    /** What the user is told when the limit stopped the query. */
    public String message() {
        return "query stopped after the " + shown + " s time limit (change it with 'set timeout N', 0 = none)";
    }

    @Override public synchronized void close() {
        closed = true;
        if (alarm != null) alarm.cancel(false);
        if (fired) Thread.interrupted(); // the interrupt was the alarm's, not the user's Ctrl-C
    }
}
