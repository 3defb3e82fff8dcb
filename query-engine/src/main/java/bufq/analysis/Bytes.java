package bufq.analysis;

import bufq.table.Sizes;

/** Byte counts as people read them: {@code 1.5MiB}, {@code 512B}, and XLA's space-grouped {@code 79 790 088}. */
public final class Bytes {

    private Bytes() {}

    /** A size as every table, chart and script prints it: {@link Sizes#human}, the one formatter. */
    public static String human(long bytes) {
        return Sizes.human(bytes);
    }

    /** Digits grouped by threes with spaces, as XLA's stack-trace breakdown prints them. */
    public static String grouped(long n) {
        String s = Long.toString(n);
        StringBuilder b = new StringBuilder(s);
        int stop = s.startsWith("-") ? 1 : 0;
        for (int i = s.length() - 3; i > stop; i -= 3) b.insert(i, ' ');
        return b.toString();
    }

    /** {@code part / whole} as a fraction, 0 when whole is 0. */
    public static double share(long part, long whole) {
        return whole == 0 ? 0.0 : (double) part / whole;
    }
}
