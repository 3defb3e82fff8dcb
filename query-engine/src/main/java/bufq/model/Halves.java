package bufq.model;

import java.util.concurrent.ForkJoinTask;

/**
 * A loop over a module's values run as two halves on two cores when there are many: a pass that
 * reads a field of each of a million value objects waits on memory more than it computes, and two
 * cores wait in parallel (the module's columns and the sweep's inputs: 60 ms each on one core).
 */
final class Halves {
    private Halves() {}

    /** From this many values a loop is split. */
    static final int SPLIT = 100_000;

    /** Runs {@code [from, to)} of the values; halves must touch disjoint slots. */
    interface Body {
        void run(int from, int to);
    }

    /** Runs {@code body} over {@code [0, n)}: in one piece below {@link #SPLIT}, else in two, the second half forked. */
    static void run(int n, Body body) {
        if (n < SPLIT) {
            body.run(0, n);
            return;
        }
        int half = n / 2;
        ForkJoinTask<?> other = ForkJoinTask.adapt(() -> body.run(half, n)).fork();
        body.run(0, half);
        if (other.tryUnfork()) other.invoke();
        else other.join();
    }
}
