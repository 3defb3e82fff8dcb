package bufq.table;

import java.util.Locale;

/**
 * A cell holding a size as a message printed it: the text and the interval of byte counts that
 * print so. Tables show {@code 17.79M (18,653,118,464..18,663,604,223 B)} ({@code 4,608,000,000 B}
 * when exact); json writes {@code {"printed": "17.79M", "low": N, "high": M}}, or the number when exact.
 *
 * @param printed the size as printed
 * @param low     the least byte count that prints so
 * @param high    the largest
 */
public record PrintedSize(String printed, long low, long high) {
    public boolean exact() { return low == high; }

    @Override public String toString() {
        if (exact()) return String.format(Locale.ROOT, "%,d B", low);
        return String.format(Locale.ROOT, "%s (%,d..%,d B)", printed, low, high);
    }
}
