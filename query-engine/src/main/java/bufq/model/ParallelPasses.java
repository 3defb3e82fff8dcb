package bufq.model;

import java.util.concurrent.ForkJoinTask;

/**
 * Passes over a module's values on two cores when there are many: one loop as two halves, or two
 * independent loops side by side. A pass that reads a field of each of a million value objects
 * waits on memory more than it computes, and two cores wait in parallel (the module's columns and
 * the sweep's inputs: 60 ms each on one core, about 30 on two).
 */
public final class ParallelPasses {
    private ParallelPasses() {}

    /** From this many values a loop is split. */
    public static final int SPLIT = 100_000;

    /** Runs {@code [from, to)} of the values; halves must touch disjoint slots. */
    public interface Body {
        void run(int from, int to);
    }

    /**
     * Runs two independent passes over {@code n} values: {@code other} forked when there are many,
     * {@code here} on this thread; both done on return (a failure of either is thrown).
     */
    public static void both(int n, Runnable here, Runnable other) {
        if (n < SPLIT) {
            here.run();
            other.run();
            return;
        }
        finish(ForkJoinTask.adapt(other).fork(), here);
    }

    /** Runs {@code here}, then {@code forked} here if no other thread took it, else waits for it. */
    private static void finish(ForkJoinTask<?> forked, Runnable here) {
        try {
            here.run();
        } catch (RuntimeException | Error e) {
            if (!forked.tryUnfork()) forked.quietlyJoin();   // never left running behind a failure
            throw e;
        }
        if (forked.tryUnfork()) forked.invoke();
        else forked.join();
    }

    /** Runs {@code body} over {@code [0, n)}: in one piece below {@link #SPLIT}, else in two, the second half forked. */
    public static void run(int n, Body body) {
        if (n < SPLIT) {
            body.run(0, n);
            return;
        }
        int half = n / 2;
        finish(ForkJoinTask.adapt(() -> body.run(half, n)).fork(), () -> body.run(0, half));
    }
}
