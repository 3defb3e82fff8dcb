package bufq.analysis;

import bufq.table.Sizes;
import bufq.units.Units;

/** Byte counts as people read them: {@code 1.5MiB}, {@code 512B}, and XLA's space-grouped {@code 79 790 088}. */
public final class Bytes {

    private Bytes() {}

    /** A size as every table, chart and script prints it: {@link Sizes#human}, the one formatter. */
    public static String human(long bytes) {
        return Sizes.human(bytes);
    }

    /** Digits grouped by threes with spaces, as XLA's stack-trace breakdown prints them. */
    public static String grouped(long n) {
        return Units.grouped(n, ' ');
    }

    /** {@code part / whole} as a fraction, 0 when whole is 0. */
    public static double share(long part, long whole) {
        return whole == 0 ? 0.0 : (double) part / whole;
    }
}
