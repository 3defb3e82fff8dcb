package bufq.table;

import java.util.Locale;

/**
 * Byte counts for people: {@code 512B}, {@code 4.0KiB}, {@code 80.8MiB} (binary units, one decimal).
 * The one size formatter: tables, charts, reports and the scripts' {@code bufq.format.bytes} all print through it.
 */
public final class Sizes {
    private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Sizes() {}

    /** {@code 512B} below 1 KiB, else one decimal in the largest unit that keeps the number at least 1. */
    public static String human(long bytes) {
        if (bytes == Long.MIN_VALUE) return bytes + "B";
        long abs = Math.abs(bytes);
        if (abs < 1024) return bytes + "B";
        double v = abs;
        int u = -1;
        while (v >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        // 1023.96KiB rounds to "1024.0KiB"; move up a unit so the figure stays below 1024.
        if (Math.round(v * 10) >= 10240 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        return (bytes < 0 ? "-" : "") + oneDecimal(v) + UNITS[u];
    }

    /**
     * {@code v} (1 to 10^7) with one decimal, as {@code String.format("%.1f", v)} writes it: the
     * shortest digits of the double ({@link Double#toString}) rounded half up. Without {@link
     * java.util.Formatter}, whose first use loads the locale's number symbols: a tenth of the CPU of
     * {@code bufq -c set} beyond the JVM's start (issue 34).
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

    /**
     * Parses {@code 16384}, {@code 512B}, {@code 16KiB}, {@code 1.5MiB}, {@code 2GiB} (case-insensitive).
     *
     * @throws NumberFormatException with a message saying what was expected
     */
    public static long parse(String text) {
        String t = text.trim();
        int i = 0;
        while (i < t.length() && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.')) i++;
        if (i == 0) throw new NumberFormatException("expected a size such as 16384 or 16KiB, found '" + text + "'");
        String unit = t.substring(i).trim().toLowerCase(Locale.ROOT);
        long mult = switch (unit) {
            case "", "b" -> 1L;
            case "kib", "k" -> 1L << 10;
            case "mib", "m" -> 1L << 20;
            case "gib", "g" -> 1L << 30;
            case "tib", "t" -> 1L << 40;
            default -> throw new NumberFormatException("unknown size unit '" + t.substring(i).trim()
                    + "' (expected B, KiB, MiB, GiB or TiB)");
        };
        double n;
        try {
            n = Double.parseDouble(t.substring(0, i));
        } catch (NumberFormatException e) {
            throw new NumberFormatException("expected a size such as 16384 or 16KiB, found '" + text + "'");
        }
        double bytes = n * mult;
        if (bytes > Long.MAX_VALUE) throw new NumberFormatException("size too large: '" + text + "'");
        if (bytes != Math.rint(bytes)) throw new NumberFormatException("size is not a whole number of bytes: '" + text + "'");
        return (long) bytes;
    }
}
