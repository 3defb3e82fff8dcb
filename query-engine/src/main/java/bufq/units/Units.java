package bufq.units;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Byte sizes read and written one way: {@link #parse} for what users type (flags, settings, query
 * literals), {@link #printed} for a size a program printed rounded (XLA's messages and reports),
 * {@link #human} and {@link #grouped} for output. All of them over the one table, {@link Unit}.
 */
public final class Units {
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal HALF = new BigDecimal("0.5");

    private Units() {}

    /** A size split into its number and its unit word, as written ({@code "1.5", "MiB"}). */
    public record Parts(String number, String unit) {}

    /**
     * Splits {@code 16GiB}, {@code 16 GiB}, {@code 4,096B}, {@code 1_000}: the number (digits, one
     * point; commas and underscores between digits dropped) and the rest, stripped. Null when the
     * text does not start with a number.
     */
    public static Parts split(String text) {
        String t = text.strip();
        StringBuilder num = new StringBuilder();
        int i = 0, n = t.length();
        boolean point = false;
        while (i < n) {
            char c = t.charAt(i);
            if (c >= '0' && c <= '9') num.append(c);
            else if (c == '.' && !point && i + 1 < n && Character.isDigit(t.charAt(i + 1))) {
                num.append(c);
                point = true;
            } else if ((c == ',' || c == '_') && !point && num.length() > 0 && i + 1 < n
                    && Character.isDigit(t.charAt(i + 1))) {
                // a thousands separator: dropped
            } else break;
            i++;
        }
        if (num.isEmpty()) return null;
        return new Parts(num.toString(), t.substring(i).strip());
    }

    /**
     * A size as users type it: {@code 16GiB}, {@code 16 GiB}, {@code 1.5MiB}, {@code 80GB} (decimal),
     * {@code 15.48G} (XLA's, binary), {@code 7000000KiB}, {@code 4096B}. A figure that is not a whole
     * number of bytes ({@code 15.48G}) is rounded to the nearest byte.
     *
     * @param unitRequired whether a bare number is refused ({@code --capacity 16} is surely not 16 B)
     * @throws SizeException saying what was expected: a negative size, an unknown unit, one past 2^63
     */
    public static long parse(String text, boolean unitRequired) {
        String t = text.strip();
        if (t.startsWith("-")) throw new SizeException("a size cannot be negative: '" + t + "'");
        Parts p = split(t);
        if (p == null) throw new SizeException("expected a size such as 16GiB, 512MB or 4096B, found '" + t + "'");
        Unit u = p.unit().isEmpty() ? null : Unit.of(p.unit());
        if (u == null && !p.unit().isEmpty())
            throw new SizeException("unknown size unit '" + p.unit() + "' in '" + t + "'; expected one of " + symbols());
        if (u == null && unitRequired)
            throw new SizeException("'" + t + "' has no unit; write " + p.number() + "B for bytes, or " + p.number()
                    + "GiB, " + p.number() + "GB, ... (help units)");
        BigDecimal bytes = new BigDecimal(p.number()).multiply(BigDecimal.valueOf(u == null ? 1 : u.bytes()));
        bytes = bytes.setScale(0, RoundingMode.HALF_UP);
        if (bytes.compareTo(MAX) > 0) throw new SizeException("size too large: '" + t + "' is past 2^63 - 1 bytes (8EiB)");
        return bytes.longValueExact();
    }

    /** {@link #parse(String, boolean)} taking a bare number as bytes. */
    public static long parse(String text) {
        return parse(text, false);
    }

    /** Bytes per unit for the word, or null when the word is no unit (the query lexer's question). */
    public static Long factor(String word) {
        Unit u = Unit.of(word);
        return u == null ? null : u.bytes();
    }

    /**
     * The exact byte counts a size printed rounded stands for: {@code 337385120B} is itself;
     * {@code 15.48G} or {@code 15.48GiB} is every count TSL's {@code HumanReadableNumBytes} prints so,
     * which divides by 1024 with truncation until less than 1024^2 is left and prints that over
     * 1024 with printf's rounding (half to even on an exact tie): 15.48G is [16,616,783,872,
     * 16,627,269,631]. A decimal unit ({@code 34.8GB}) is plain rounding of bytes / 1000^n.
     * Null when the text is no size; negative figures are refused with an exception.
     *
     * @throws SizeException for a negative figure or one past 2^63 - 1
     */
    public static PrintedSize printed(String text) {
        String t = text.strip();
        if (t.startsWith("-")) throw new SizeException("a size cannot be negative: '" + t + "'");
        Parts p = split(t);
        if (p == null) return null;
        String word = p.unit().endsWith(".") ? p.unit().substring(0, p.unit().length() - 1) : p.unit();
        Unit u = word.isEmpty() ? Unit.B : Unit.of(word);
        if (u == null) return null;
        BigDecimal v = new BigDecimal(p.number());
        BigDecimal lo, hi;
        if (u == Unit.B) {
            if (v.scale() > 0) return null;
            lo = hi = v;
        } else if (v.scale() == 0 && !u.binary()) {
            lo = v.subtract(HALF).multiply(BigDecimal.valueOf(u.bytes())).setScale(0, RoundingMode.CEILING);
            hi = v.add(HALF).multiply(BigDecimal.valueOf(u.bytes())).setScale(0, RoundingMode.FLOOR);
        } else if (!u.binary()) {
            BigDecimal half = BigDecimal.ONE.movePointLeft(v.scale()).multiply(HALF);
            BigDecimal f = BigDecimal.valueOf(u.bytes());
            lo = v.subtract(half).multiply(f).setScale(0, RoundingMode.CEILING);
            hi = v.add(half).multiply(f).setScale(0, RoundingMode.FLOOR);
        } else {
            long[] q = tslQuotients(v);
            // the printer picks the unit that keeps the figure at least 1: 1.0K is no count below 1024
            if (q[0] < 1024 && q[1] >= 1024) q[0] = 1024;
            BigInteger step = BigInteger.valueOf(1024).pow(u.power() - 1);
            lo = new BigDecimal(BigInteger.valueOf(q[0]).multiply(step));
            hi = new BigDecimal(BigInteger.valueOf(q[1] + 1).multiply(step).subtract(BigInteger.ONE));
        }
        lo = lo.max(BigDecimal.ZERO);
        if (hi.compareTo(MAX) > 0) {
            if (lo.compareTo(MAX) > 0) throw new SizeException("size too large: '" + t + "' is past 2^63 - 1 bytes (8EiB)");
            hi = MAX;
        }
        if (lo.compareTo(hi) > 0) return null;
        return new PrintedSize(t, lo.longValueExact(), hi.longValueExact());
    }

    /**
     * The integers {@code q} for which printf prints {@code q / 1024.0} as {@code v} with v's
     * decimals, {lowest, highest}: q/1024 is exact in binary, so a tie is exact and goes to the
     * even last digit.
     */
    private static long[] tslQuotients(BigDecimal v) {
        BigDecimal half = BigDecimal.ONE.movePointLeft(v.scale()).multiply(HALF);
        BigDecimal k = BigDecimal.valueOf(1024);
        BigDecimal low = v.subtract(half).multiply(k), high = v.add(half).multiply(k);
        boolean even = v.unscaledValue().testBit(0) == false;
        BigDecimal lo = low.setScale(0, RoundingMode.CEILING);
        if (lo.compareTo(low) == 0 && !even) lo = lo.add(BigDecimal.ONE);
        BigDecimal hi = high.setScale(0, RoundingMode.FLOOR);
        if (hi.compareTo(high) == 0 && !even) hi = hi.subtract(BigDecimal.ONE);
        lo = lo.max(BigDecimal.ZERO);
        BigDecimal cap = BigDecimal.valueOf(Long.MAX_VALUE / 1024);
        return new long[] {lo.min(cap).longValue(), hi.min(cap).longValue()};
    }

    private static final String[] HUMAN = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    /**
     * Bytes for people: {@code 512B} below 1 KiB, else one decimal in the largest binary unit that
     * keeps the number at least 1 ({@code 4.0KiB}, {@code 80.8MiB}). Every table, chart, report and
     * the scripts' {@code bufq.format.bytes} print through it.
     */
    public static String human(long bytes) {
        if (bytes == Long.MIN_VALUE) return bytes + "B";
        long abs = Math.abs(bytes);
        if (abs < 1024) return bytes + "B";
        double v = abs;
        int u = -1;
        while (v >= 1024 && u < HUMAN.length - 1) {
            v /= 1024;
            u++;
        }
        // 1023.96KiB rounds to "1024.0KiB"; move up a unit so the figure stays below 1024.
        if (Math.round(v * 10) >= 10240 && u < HUMAN.length - 1) {
            v /= 1024;
            u++;
        }
        return (bytes < 0 ? "-" : "") + oneDecimal(v) + HUMAN[u];
    }

    /**
     * {@code v} (1 to 10^7) with one decimal, as {@code String.format("%.1f", v)} writes it: the
     * shortest digits of the double ({@link Double#toString}) rounded half up. Without {@link
     * java.util.Formatter}, whose first use loads the locale's number symbols: a tenth of the CPU of
     * {@code bufq -c set} beyond the JVM's start.
     */
    static String oneDecimal(double v) {
        String s = Double.toString(v);   // plain digits from 10^-3 to 10^7
        int dot = s.indexOf('.');
        long whole = Long.parseLong(s, 0, dot, 10);
        int tenth = s.charAt(dot + 1) - '0';
        if (dot + 2 < s.length() && s.charAt(dot + 2) >= '5') tenth++;
        if (tenth == 10) {
            tenth = 0;
            whole++;
        }
        return whole + "." + tenth;
    }

    /** {@code 15.48G (16,616,783,872..16,627,269,631 B)}, or {@code 4,608,000,000 B} when exact: how tables show a printed size. */
    public static String describe(PrintedSize p) { return p.describe(); }

    /** Digits grouped by threes with commas, whatever the locale: {@code 6,532,939,776}. */
    public static String grouped(long n) {
        return grouped(n, ',');
    }

    /**
     * Digits grouped by threes with {@code separator}: a space where bufq reproduces XLA's own text,
     * which groups so ({@code Stack trace breakdown for peak usage: 79 790 088 bytes}).
     */
    public static String grouped(long n, char separator) {
        String s = Long.toString(n);
        StringBuilder b = new StringBuilder(s);
        int stop = s.startsWith("-") ? 1 : 0;
        for (int i = s.length() - 3; i > stop; i -= 3) b.insert(i, separator);
        return b.toString();
    }

    /** {@code part / whole} as a fraction, 0 when {@code whole} is 0: a share of bytes. */
    public static double share(long part, long whole) {
        return whole == 0 ? 0.0 : (double) part / whole;
    }

    /** The symbols of the table, for messages: {@code B, KB, MB, ..., KiB, ..., K, M, ...}. */
    public static String symbols() {
        StringBuilder b = new StringBuilder();
        for (Unit u : Unit.values()) b.append(b.isEmpty() ? "" : ", ").append(u.symbol());
        return b.toString();
    }

    /**
     * Parses one size: {@code 337385120B}, {@code (337385120B)}, {@code 0B}, {@code 6.00MiB},
     * {@code 384.0KiB}, {@code 63.80G}, {@code 530.00M}, {@code 1.5 GiB}, {@code 4608000000 bytes},
     * {@code 4,608,000,000}; null when {@code s} is no size, or a negative one or one past 64 bits.
     * The interval is {@link #printed}'s: the byte counts XLA's printer prints so.
     */
    public static PrintedSize printedOrNull(String s) {
        if (s == null) return null;
        String t = s.strip();
        if (t.startsWith("(") && t.endsWith(")")) t = t.substring(1, t.length() - 1).strip();
        if (t.isEmpty() || t.length() > 64) return null;
        long plain = plainCount(t);
        if (plain >= 0) return new PrintedSize(t, plain, plain);
        try {
            return printed(t);
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
    public static PrintedSize printedAt(String line, int from, int[] end) {
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
        PrintedSize s = printedOrNull(line.substring(start, j));
        if (s == null && j > numEnd) {
            s = printedOrNull(line.substring(start, numEnd));
            j = numEnd;
        }
        if (s != null && end != null) end[0] = j;
        return s;
    }
}
