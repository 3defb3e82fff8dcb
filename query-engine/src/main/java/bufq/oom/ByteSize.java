package bufq.oom;

import bufq.units.PrintedSize;
import bufq.units.SizeException;
import bufq.units.Units;

/**
 * A size as a message prints it, kept as the interval {@code [lo, hi]} of exact byte counts that
 * print that way: {@code 337385120B} is exact, {@code 6.00MiB} (tsl {@code HumanReadableNumBytes})
 * and TPU's {@code 8.00M} are not.
 *
 * @param lo   the smallest byte count that prints as {@code text}
 * @param hi   the largest (equal to {@code lo} when the text is exact)
 * @param text the size as printed
 */
public record ByteSize(long lo, long hi, String text) {
    public ByteSize {
        if (lo > hi) throw new IllegalArgumentException("lo " + lo + " > hi " + hi);
    }

    /** An exact size. */
    public static ByteSize exact(long bytes) { return new ByteSize(bytes, bytes, Long.toString(bytes)); }

    public boolean isExact() { return lo == hi; }

    /** Whether {@code bytes} prints as this size. */
    public boolean contains(long bytes) { return lo <= bytes && bytes <= hi; }

    /** The middle of the interval: the figure to compare with when one number is needed. */
    public long mid() { return lo + (hi - lo) / 2; }

    /** The printed text, with the interval when it is not exact: {@code 8.00M (8,383,488..8,393,727 B)}. */
    public String describe() {
        if (isExact()) return Units.grouped(lo) + " B";
        return text + " (" + Units.grouped(lo) + ".." + Units.grouped(hi) + " B)";
    }

    @Override public String toString() { return describe(); }

    /** As a table cell: tables show {@link #describe}'s text, json {@code {"printed", "low", "high"}}. */
    public PrintedSize cell() { return new PrintedSize(text, lo, hi); }

    /**
     * Parses one size: {@code 337385120B}, {@code (337385120B)}, {@code 0B}, {@code 6.00MiB},
     * {@code 384.0KiB}, {@code 63.80G}, {@code 530.00M}, {@code 1.5 GiB}, {@code 4608000000 bytes},
     * {@code 4,608,000,000}; null when {@code s} is no size, or a negative one or one past 64 bits.
     * The interval is {@link Units#printed}'s: the byte counts XLA's printer prints so.
     */
    public static ByteSize parse(String s) {
        if (s == null) return null;
        String t = s.strip();
        if (t.startsWith("(") && t.endsWith(")")) t = t.substring(1, t.length() - 1).strip();
        if (t.isEmpty() || t.length() > 64) return null;
        try {
            PrintedSize p = Units.printed(t);
            return p == null ? null : new ByteSize(p.low(), p.high(), t);
        } catch (SizeException e) {
            return null;
        }
    }

    /**
     * The size starting at {@code from} in {@code line} (blanks before it skipped): the longest run of
     * digits, point, comma and a unit word; null when none. {@code end[0]} gets where it stopped.
     */
    static ByteSize at(String line, int from, int[] end) {
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
        ByteSize s = parse(line.substring(start, j));
        if (s == null && j > numEnd) {
            s = parse(line.substring(start, numEnd));
            j = numEnd;
        }
        if (s != null && end != null) end[0] = j;
        return s;
    }
}
