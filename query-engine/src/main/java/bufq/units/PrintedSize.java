package bufq.units;

/**
 * A size as a program printed it, kept as the interval of exact byte counts that print that way:
 * {@code 337385120B} is exact, {@code 6.00MiB} (tsl {@code HumanReadableNumBytes}) and TPU's
 * {@code 8.00M} are not. The one type for a printed size: messages, tables and json all use it.
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
    public String describe() { return Units.describe(this); }

    @Override public String toString() { return describe(); }

    /**
     * Parses one size: {@code 337385120B}, {@code (337385120B)}, {@code 0B}, {@code 6.00MiB},
     * {@code 384.0KiB}, {@code 63.80G}, {@code 530.00M}, {@code 1.5 GiB}, {@code 4608000000 bytes},
     * {@code 4,608,000,000}; null when {@code s} is no size, or a negative one or one past 64 bits.
     * The interval is {@link Units#printed}'s: the byte counts XLA's printer prints so.
     */
    public static PrintedSize parse(String s) {
        if (s == null) return null;
        String t = s.strip();
        if (t.startsWith("(") && t.endsWith(")")) t = t.substring(1, t.length() - 1).strip();
        if (t.isEmpty() || t.length() > 64) return null;
        long plain = plainCount(t);
        if (plain >= 0) return new PrintedSize(t, plain, plain);
        try {
            PrintedSize p = Units.printed(t);
            return p == null ? null : p;
        } catch (SizeException e) {
            return null;
        }
    }

    /**
     * A plain byte count ({@code 4608000000}, {@code 4,608,000,000}, with {@code B} or {@code bytes}
     * after it) read without exact decimal arithmetic, or -1: most figures of a log are these, and a
     * million of them are read in a paste of a million messages.
     */
    private static long plainCount(String t) {
        int n = t.length(), i = 0, digits = 0;
        long v = 0;
        while (i < n) {
            char c = t.charAt(i);
            if (c >= '0' && c <= '9') {
                if (++digits > 18) return -1;
                v = v * 10 + (c - '0');
            } else if (c != ',' || digits == 0) break;
            i++;
        }
        if (digits == 0 || t.charAt(i - 1) == ',') return -1;
        String rest = t.substring(i).strip();
        return rest.isEmpty() || Unit.of(rest) == Unit.B ? v : -1;
    }

    /**
     * The size starting at {@code from} in {@code line} (blanks before it skipped): the longest run of
     * digits, point, comma and a unit word; null when none. {@code end[0]} gets where it stopped.
     */
    public static PrintedSize at(String line, int from, int[] end) {
        int i = from, n = line.length();
        while (i < n && (line.charAt(i) == ' ' || line.charAt(i) == '\t' || line.charAt(i) == '(')) i++;
        int start = i;
        if (i < n && line.charAt(i) == '-') i++;
        while (i < n && (Character.isDigit(line.charAt(i)) || line.charAt(i) == '.' || line.charAt(i) == ',')) i++;
        // a sentence's full stop or comma after the number is not part of it
        while (i > start && (line.charAt(i - 1) == '.' || line.charAt(i - 1) == ',')) i--;
        if (i == start) return null;
        int numEnd = i;
        int j = i;
        if (j < n && line.charAt(j) == ' ' && line.startsWith("bytes", j + 1)) j += 6;
        else {
            while (j < n && Character.isLetter(line.charAt(j)) && j - numEnd < 5) j++;
            if (j < n && Character.isLetter(line.charAt(j))) j = numEnd;   // a word, not a unit
        }
        PrintedSize s = parse(line.substring(start, j));
        if (s == null && j > numEnd) {
            s = parse(line.substring(start, numEnd));
            j = numEnd;
        }
        if (s != null && end != null) end[0] = j;
        return s;
    }
}
