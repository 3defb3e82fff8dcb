package bufq.units;

/**
 * A size as a program printed it, with the interval of exact byte counts that print that way.
 *
 * @param text the size as printed ({@code 15.48G})
 * @param low  the smallest byte count that prints as {@code text}
 * @param high the largest (equal to {@code low} when the text is exact)
 */
public record PrintedSize(String text, long low, long high) {
    public PrintedSize {
        if (low > high) throw new IllegalArgumentException("low " + low + " > high " + high);
    }

    public boolean isExact() { return low == high; }

    /** Whether {@code bytes} prints as this size. */
    public boolean contains(long bytes) { return low <= bytes && bytes <= high; }

}
