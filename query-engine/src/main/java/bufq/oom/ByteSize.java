package bufq.oom;

import java.math.BigDecimal;
import java.math.RoundingMode;
import bufq.table.PrintedSize;

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

    /** The printed text, with the interval when it is not exact: {@code 8.00M (8,383,488..8,394,751 B)}. */
    public String describe() { return printed().toString(); }

    /** This size as a table cell (json: the number when exact, else the text with its interval). */
    public PrintedSize printed() { return new PrintedSize(text, lo, hi); }

    @Override public String toString() { return describe(); }

    /**
     * Parses one size: {@code 337385120B}, {@code (337385120B)}, {@code 0B}, {@code 6.00MiB},
     * {@code 384.0KiB}, {@code 63.80G}, {@code 530.00M}, {@code 1.5 GiB}, {@code 4608000000 bytes},
     * {@code 4608000000}; null when {@code s} is no size, is negative, or is more than a long holds
     * (nothing is clamped: {@link FigureCheck} says where such a figure was). Units are binary
     * whatever their spelling (XLA and the TPU runtime print powers of 1024).
     */
    public static ByteSize parse(String s) {
        if (s == null) return null;
        String t = s.strip();
        if (t.startsWith("(") && t.endsWith(")")) t = t.substring(1, t.length() - 1).strip();
        int i = 0, n = t.length();
        if (n == 0 || n > 64 || t.charAt(0) == '-') return null;
        while (i < n && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.' || t.charAt(i) == ',')) i++;
        String num = t.substring(0, i).replace(",", "");
        if (num.isEmpty() || num.equals(".") || num.indexOf('.') != num.lastIndexOf('.')) return null;
        String unit = t.substring(i).strip();
        if (unit.endsWith(".")) unit = unit.substring(0, unit.length() - 1);
        int power = power(unit);
        if (power < 0) return null;
        if (power == 0 && num.indexOf('.') < 0 && num.length() <= 18) {
            long v = Long.parseLong(num);   // a plain byte count: exact, no rounding to undo
            return new ByteSize(v, v, t);
        }
        BigDecimal d;
        try {
            d = new BigDecimal(num);
        } catch (NumberFormatException e) {
            return null;
        }
        int decimals = Math.max(0, d.scale());
        BigDecimal[] range = decimals == 0 && power == 0 ? new BigDecimal[]{d, d} : printed(d, decimals, power);
        // a count a long cannot hold prints as nothing: past 2^63 - 1 only the interval's top is cut
        if (range[0].compareTo(LONG_MAX) > 0 || range[0].compareTo(range[1]) > 0) return null;
        return new ByteSize(range[0].longValueExact(), range[1].min(LONG_MAX).longValueExact(), t);
    }

    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal K = BigDecimal.valueOf(1024);

    /**
     * The byte counts {@code [lo, hi]} that print as {@code d} with {@code decimals} digits in units of
     * 1024^{@code power}. tsl's {@code HumanReadableNumBytes} (tsl/platform/numbers.cc) divides by 1024
     * with integer division until fewer than 1024 * 1024 are left, then prints that count / 1024.0
     * with {@code %.2f} ({@code %.1f} for K), so 15.48G is every byte count whose count of MiB, m, has
     * m / 1024 round to 15.48: m in [15847, 15856], bytes [15847 * 2^20, 15857 * 2^20 - 1]. printf
     * rounds the exact binary value half to even. A figure printed with other decimals (a person's
     * {@code 1.5 GiB}, a whole {@code 16G}) is the exact interval of its rounding.
     */
    private static BigDecimal[] printed(BigDecimal d, int decimals, int power) {
        BigDecimal half = BigDecimal.ONE.movePointLeft(decimals).divide(BigDecimal.valueOf(2));
        boolean tsl = power == 1 ? decimals == 1 : power >= 2 && decimals == 2;
        if (tsl) {
            BigDecimal lo = d.subtract(half).multiply(K).setScale(0, RoundingMode.CEILING);
            BigDecimal hi = d.add(half).multiply(K).setScale(0, RoundingMode.FLOOR);
            // the count printed is at least 1024 (else a smaller unit) and below 1024 * 1024
            lo = lo.max(K);
            hi = hi.min(K.multiply(K).subtract(BigDecimal.ONE));
            while (lo.compareTo(hi) <= 0 && !roundsTo(lo, decimals, d)) lo = lo.add(BigDecimal.ONE);
            while (hi.compareTo(lo) >= 0 && !roundsTo(hi, decimals, d)) hi = hi.subtract(BigDecimal.ONE);
            if (lo.compareTo(hi) <= 0) {
                BigDecimal unit = K.pow(power - 1);
                return new BigDecimal[]{lo.multiply(unit), hi.add(BigDecimal.ONE).multiply(unit).subtract(BigDecimal.ONE)};
            }
        }
        BigDecimal scale = K.pow(power);
        BigDecimal lo = d.subtract(half).multiply(scale).setScale(0, RoundingMode.CEILING).max(BigDecimal.ZERO);
        BigDecimal hi = d.add(half).multiply(scale).setScale(0, RoundingMode.FLOOR);
        return new BigDecimal[]{lo, hi};
    }

    /** Whether {@code count / 1024}, printed with {@code decimals} digits (half to even), is {@code d}. */
    private static boolean roundsTo(BigDecimal count, int decimals, BigDecimal d) {
        return count.divide(K).setScale(decimals, RoundingMode.HALF_EVEN).compareTo(d) == 0;
    }

    /** 1024's power a unit word stands for, or -1. */
    static int power(String unit) {
        String u = unit.toLowerCase(Locale.ROOT);
        if (u.isEmpty()) return 0;
        return switch (u) {
            case "b", "byte", "bytes" -> 0;
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
