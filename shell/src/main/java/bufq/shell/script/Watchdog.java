package bufq.shell.script;

import org.graalvm.polyglot.Context;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * Stops a script that runs too long, holds too much memory (heap and off-heap buffers), or is cancelled (Ctrl-C, which the REPL
 * delivers by interrupting the thread running the statement). One daemon thread per context; it
 * sleeps while no script runs. Stopping first interrupts the context, which keeps the script's
 * registrations; if the script does not stop within two seconds the context is closed for good.
 */
final class Watchdog {
    private static final long POLL_MS = 20;

    private final Context context;
    private final long heapCap;
    private final Thread thread;
    private final Object lock = new Object();
    private int depth;
    private long deadline;          // System.nanoTime() limit, 0 = none
    private Thread owner;
    private long heapLimit;
    private long heapAllowance;     // heapLimit minus the heap in use when the run started
    private long usedAtEnter;       // heap and off-heap in use when the outermost run started
    private long held;              // what earlier runs left held (globals): counted against the same cap
    private long lastRecount;
    private long lastGc;
    private volatile String reason;
    private volatile boolean closed;
    private volatile boolean killed;
    private long run;               // counts outermost calls, so a late stop never hits the next one
    private boolean stopping;       // an interrupt is under way; the next run waits for it

    /** @param heapCap bytes of heap a script may hold beyond what was in use when it started */
    Watchdog(Context context, long heapCap) {
        this.context = context;
        this.heapCap = heapCap;
        this.thread = new Thread(this::loop, "bufq-js-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    /** A call into JavaScript starts; nested calls share the outermost call's limits. */
    void enter(Duration timeout) {
        synchronized (lock) {
            while (depth == 0 && stopping) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // keep the flag: the script will see it as Ctrl-C
                    break;
                }
            }
            if (depth++ > 0) return;
            run++;
            reason = null;
            owner = Thread.currentThread();
            deadline = timeout.isZero() || timeout.isNegative() ? 0 : System.nanoTime() + timeout.toNanos();
            Runtime rt = Runtime.getRuntime();
            long heap = rt.totalMemory() - rt.freeMemory();
            heapAllowance = Math.min(heapCap, Math.max(0, (rt.maxMemory() - heap) / 2));
            usedAtEnter = heap + offHeap();
            // What earlier runs keep (a global array) is the scripts' too: one cap for all of it, so
            // runs in turn cannot each hold the cap anew.
            heapLimit = usedAtEnter + Math.max(0, heapAllowance - held);
            lock.notifyAll();
        }
    }

    /** Growth of a run past which its exit collects garbage to learn what the run left held. */
    private static final long MEASURED_GROWTH = 32L << 20;

    void exit() {
        synchronized (lock) {
            if (--depth > 0) return;
            owner = null;
            Runtime rt = Runtime.getRuntime();
            long change = used(rt) - usedAtEnter;
            long now = System.nanoTime();
            // A big change, or (every few seconds) a run after runs that held memory and may have let
            // it go (keep = null): what stays after a collection is what the run left held, or freed.
            boolean recount = held > 0 && now - lastRecount > 2_000_000_000L;
            if (Math.abs(change) < MEASURED_GROWTH && !recount) return;
            lastRecount = now;
            System.gc();
            held = Math.max(0, held + used(rt) - usedAtEnter);
        }
    }

    /** Bytes the current (or last) run could hold, all runs together: the cap, or half the free heap when that is less. */
    long heapAllowance() {
        synchronized (lock) {
            return heapAllowance;
        }
    }

    /** Why the running script was stopped, or null when it was not. */
    String reason() { return reason; }

    /** The context had to be closed because interrupting it did not work. */
    boolean killed() { return killed; }

    /** Stops the running script, if any, saying why. */
    void stop(String why) {
        long which;
        synchronized (lock) {
            if (depth == 0) return;
            if (reason == null) reason = why;
            which = run;
            stopping = true;
        }
        boolean interrupted = false;
        try {
            context.interrupt(Duration.ofSeconds(2));
            interrupted = true;
        } catch (TimeoutException | RuntimeException e) {
            // still running two seconds later: close the context, unless that run has ended meanwhile
        } finally {
            boolean sameRun;
            synchronized (lock) {
                sameRun = run == which && depth > 0;
                if (interrupted || !sameRun) {
                    stopping = false;
                    lock.notifyAll();
                }
            }
            if (!interrupted && sameRun) {
                kill();
                synchronized (lock) {
                    stopping = false;
                    lock.notifyAll();
                }
            }
        }
    }

    /** Closes the context at once, cancelling what runs: the last resort when interrupting fails. */
    void kill() {
        killed = true;
        try {
            context.close(true);
        } catch (RuntimeException ignored) {
            // already closing
        }
    }

    void close() {
        closed = true;
        thread.interrupt();
    }

    private void loop() {
        while (!closed) {
            String why = null;
            synchronized (lock) {
                while (depth == 0 && !closed) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        if (closed) return;
                    }
                }
                if (closed) return;
                if (deadline != 0 && System.nanoTime() - deadline > 0) why = "time";
                else if (owner != null && owner.isInterrupted()) why = "cancelled";
            }
            if (why == null && overHeap()) why = "memory";
            if (why != null) {
                stop(why);
                // Host code may swallow the interrupt (a field read inside try/catch): ask again
                // every second until this run is over.
                synchronized (lock) {
                    long until = System.nanoTime() + 1_000_000_000L;
                    while (depth > 0 && !closed && System.nanoTime() - until < 0) {
                        try {
                            lock.wait(POLL_MS);
                        } catch (InterruptedException e) {
                            if (closed) return;
                        }
                    }
                }
                continue;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                if (closed) return;
            }
        }
    }

    /**
     * Memory in use past the limit even after a collection (garbage alone does not count): the heap
     * and the off-heap buffers, where GraalJS keeps a {@code SharedArrayBuffer} (a script holding
     * 5 GB of them passed a heap-only limit of 1 GiB). An {@code ArrayBuffer} is on the heap.
     */
    private boolean overHeap() {
        Runtime rt = Runtime.getRuntime();
        long limit;
        synchronized (lock) {
            limit = heapLimit;
        }
        if (used(rt) <= limit) return false;
        long now = System.nanoTime();
        if (now - lastGc < 200_000_000L) return false;
        lastGc = now;
        System.gc();
        return used(rt) > limit;
    }

    private static long used(Runtime rt) { return rt.totalMemory() - rt.freeMemory() + offHeap(); }

    /** Bytes of the JVM's direct buffers (the pool {@code ByteBuffer.allocateDirect} draws on). */
    private static long offHeap() {
        long n = 0;
        for (BufferPoolMXBean b : DIRECT) n += Math.max(0, b.getMemoryUsed());
        return n;
    }

    private static final List<BufferPoolMXBean> DIRECT = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
            .stream().filter(b -> b.getName().equals("direct")).toList();
}
