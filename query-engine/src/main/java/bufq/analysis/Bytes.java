package bufq.analysis;

import java.util.Locale;

/** Byte counts as people read them: {@code 1.5MiB}, {@code 512B}, and XLA's space-grouped {@code 79 790 088}. */
public final class Bytes {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Bytes() {}

    /** Short human size with at most one decimal: {@code 0B}, {@code 512B}, {@code 1.5KiB}, {@code 80MiB}. */
    public static String human(long bytes) {
        if (bytes < 0) return "-" + human(-bytes);
        if (bytes < 1024) return bytes + "B";
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        String s = String.format(Locale.ROOT, "%.1f", v);
        if (s.endsWith(".0")) s = s.substring(0, s.length() - 2);
        return s + UNITS[u];
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
