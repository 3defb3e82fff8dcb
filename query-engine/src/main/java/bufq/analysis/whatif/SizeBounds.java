package bufq.analysis.whatif;

import bufq.lang.QueryException;

/**
 * Bounds on the sizes a what-if makes, as the readers bound the sizes they read: one value at most
 * {@link #MAX_BYTES}, all of them together at most {@link #MAX_TOTAL}, so the sweeps' sums stay far
 * below {@code Long.MAX_VALUE}. Past a bound the edit is refused, pointing at its condition.
 */
final class SizeBounds {
    private SizeBounds() {}

    /** 64 PiB, the readers' bound on one size. */
    static final long MAX_BYTES = 1L << 56;

    /** The readers' bound on a module's sizes added up. */
    static final long MAX_TOTAL = 1L << 61;

    /** {@code bytes * factor}, rounded; refused past {@link #MAX_BYTES}. */
    static long scaled(long bytes, double factor, Edit.Where where) throws QueryException {
        double v = bytes * factor;
        if (v > MAX_BYTES) {
            throw new QueryException(where.offset(), where.offset() + where.condition().length(),
                    "scaling a value of " + bytes + " bytes by " + factor + " gives more than 2^56 bytes (64 PiB)");
        }
        return Math.round(v);
    }

    /** Refuses edit {@code e} when the first {@code n} sizes add up past {@link #MAX_TOTAL}. */
    static void checkTotal(long[] sizes, int n, Edit e) throws QueryException {
        long total = 0;
        for (int k = 0; k < n; k++) {
            total += sizes[k];   // each at most 2^56: no overflow before the check
            if (total > MAX_TOTAL) {
                int from = e.where() != null ? e.where().offset() : 0;
                int to = e.where() != null ? from + e.where().condition().length() : 1;
                throw new QueryException(from, to, "after this edit the sizes add up to more than 2^61 bytes");
            }
        }
    }
}
