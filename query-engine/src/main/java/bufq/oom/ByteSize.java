package bufq.oom;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

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
        if (isExact()) return String.format(Locale.ROOT, "%,d B", lo);
        return String.format(Locale.ROOT, "%s (%,d..%,d B)", text, lo, hi);
    }

    @Override public String toString() { return describe(); }

    /**
     * Parses one size: {@code 337385120B}, {@code (337385120B)}, {@code 0B}, {@code 6.00MiB},
     * {@code 384.0KiB}, {@code 63.80G}, {@code 530.00M}, {@code 1.5 GiB}, {@code 4608000000 bytes},
     * {@code 4608000000}; null when {@code s} is no size. Units are binary whatever their spelling
     * (XLA and the TPU runtime print powers of 1024).
     */
    public static ByteSize parse(String s) {
        if (s == null) return null;
        String t = s.strip();
        if (t.startsWith("(") && t.endsWith(")")) t = t.substring(1, t.length() - 1).strip();
        int i = 0, n = t.length();
        if (n == 0 || n > 64) return null;
        boolean neg = t.charAt(0) == '-';
        if (neg) i++;
        int numStart = i;
        while (i < n && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.' || t.charAt(i) == ',')) i++;
        String num = t.substring(numStart, i).replace(",", "");
        if (num.isEmpty() || num.equals(".") || num.indexOf('.') != num.lastIndexOf('.')) return null;
        String unit = t.substring(i).strip();
        if (unit.endsWith(".")) unit = unit.substring(0, unit.length() - 1);
        int power = power(unit);
        if (power < 0) return null;
        BigDecimal d;
        try {
            d = new BigDecimal(num);
        } catch (NumberFormatException e) {
            return null;
        }
        if (neg) d = d.negate();
        BigDecimal scale = BigDecimal.valueOf(1024).pow(power);
        int decimals = Math.max(0, d.scale());
        if (decimals == 0 && power == 0) {
            long v = clamp(d);
            return new ByteSize(v, v, t);
        }
        // Printed with `decimals` digits after the point: the exact figure was within half a unit of
        // the last digit. HumanReadableNumBytes also drops the remainder of each division by 1024
        // but the last, so up to a 1024th of the unit more fits.
        BigDecimal half = BigDecimal.ONE.movePointLeft(decimals).divide(BigDecimal.valueOf(2));
        BigDecimal lo = d.subtract(half).multiply(scale).setScale(0, RoundingMode.CEILING);
        BigDecimal hi = d.add(half).multiply(scale).setScale(0, RoundingMode.FLOOR);
        if (power > 1) hi = hi.add(BigDecimal.valueOf(1024).pow(power - 1)).subtract(BigDecimal.ONE);
        long l = Math.max(0, clamp(lo)), h = Math.max(l, clamp(hi));
        return new ByteSize(l, h, t);
    }

    private static long clamp(BigDecimal d) {
        if (d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) return Long.MAX_VALUE;
        if (d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0) return Long.MIN_VALUE;
        return d.setScale(0, RoundingMode.FLOOR).longValueExact();
    }

    /** 1024's power a unit word stands for, or -1. */
    private static int power(String unit) {
        String u = unit.toLowerCase(Locale.ROOT);
        return switch (u) {
            case "", "b", "byte", "bytes" -> 0;
            case "k", "kb", "kib" -> 1;
            case "m", "mb", "mib" -> 2;
            case "g", "gb", "gib" -> 3;
            case "t", "tb", "tib" -> 4;
            case "p", "pb", "pib" -> 5;
            case "e", "eb", "eib" -> 6;
            default -> -1;
        };
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
