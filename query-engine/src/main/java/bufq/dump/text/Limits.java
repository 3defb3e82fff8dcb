package bufq.dump.text;

/**
 * Bounds on byte counts, so that every sum the model and the analyses form stays far below
 * {@code Long.MAX_VALUE}: one allocation or value holds at most {@link #MAX_BYTES}, and the
 * sizes of one module add up to at most {@link #MAX_TOTAL}. A line past a bound is a warning
 * naming it and is skipped, so overflow is reported where it enters, never wrapped later.
 */
final class Limits {
    private Limits() {}

    /** 64 PiB: more than any device or host holds, far less than 2^63. */
    static final long MAX_BYTES = 1L << 56;

    /** What all sizes of a module may add up to: any sum of some of them, doubled, still fits a long. */
    static final long MAX_TOTAL = 1L << 61;

    /** {@code v} when it is a plausible byte count; the caller names the line. */
    static long bytes(long v, String what) {
        if (v > MAX_BYTES) throw new Cursor.Bad(what + " " + v + " is more than 2^56 bytes (64 PiB); not a real size");
        return v;
    }

    /** Most steps a schedule may have (4 Mi): far more than any real module, small enough for per-step tables. */
    static final int MAX_STEPS = 1 << 22;

    /** A running sum of the sizes of one module's section. */
    static final class Sum {
        private long sum;

        /** Adds {@code v}; past {@link #MAX_TOTAL} the caller's line is refused. */
        void add(long v, String what) {
            add(v, what, Long.MIN_VALUE);
        }

        /** As {@link #add(long, String)}, naming {@code what + " " + number}: no message is built per line. */
        void add(long v, String what, long number) {
            if (v > MAX_TOTAL - sum) {
                String name = number == Long.MIN_VALUE ? what : what + " " + number;
                throw new Cursor.Bad(name + " brings this module's sizes past 2^61 bytes; not a real dump");
            }
            sum += v;
        }
    }
}
