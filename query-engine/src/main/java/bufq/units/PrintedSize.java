package bufq.units;

import java.util.Locale;

/**
 * A size as a program printed it, kept as the interval of exact byte counts that print that way:
 * {@code 337385120B} is exact, {@code 6.00MiB} (tsl {@code HumanReadableNumBytes}) and TPU's
 * {@code 8.00M} are not. The one type for a printed size: messages, tables and json all use it;
 * {@link Units#printedOrNull} and {@link Units#printedAt} read one.
 *
 * @param text the size as printed ({@code 15.48G})
 * @param low  the smallest byte count that prints as {@code text}
 * @param high the largest (equal to {@code low} when the text is exact)
 */
public record PrintedSize(String text, long low, long high) {
    public PrintedSize {
        if (low > high) throw new IllegalArgumentException("low " + low + " > high " + high);
    }

    /** An exact size. */
    public static PrintedSize exact(long bytes) { return new PrintedSize(Long.toString(bytes), bytes, bytes); }

    public boolean isExact() { return low == high; }

    /** Whether {@code bytes} prints as this size. */
    public boolean contains(long bytes) { return low <= bytes && bytes <= high; }

    /** The middle of the interval: the figure to compare with when one number is needed. */
    public long mid() { return low + (high - low) / 2; }

    /** The printed text, with the interval when it is not exact: {@code 8.00M (8,383,488..8,394,751 B)}. */
    public String describe() {
        if (isExact()) return grouped(low) + " B";
        return text + " (" + grouped(low) + ".." + grouped(high) + " B)";
    }

    /** Digits grouped by threes with commas, whatever the locale: {@code 6,532,939,776}. */
    private static String grouped(long n) { return String.format(Locale.ROOT, "%,d", n); }

    @Override public String toString() { return describe(); }
}
