package bufq.fit;

import bufq.table.Sizes;

import java.util.Locale;

/**
 * How much memory the programs may use: the device's (or process's) {@code bytes}, less what the
 * runtime keeps for itself ({@code reservedBytes}), and where the figures come from.
 *
 * @param source    said with every result: "set capacity", "device v5e (...)", a message's figure
 */
public record Capacity(long bytes, long reservedBytes, String source) {
    public Capacity {
        if (bytes <= 0) throw new IllegalArgumentException("capacity must be positive");
        if (reservedBytes < 0 || reservedBytes >= bytes)
            throw new IllegalArgumentException("reserved must be at least 0 and below the capacity");
    }

    /** What a program is offered: the capacity less the reservation. */
    public long offeredBytes() { return bytes - reservedBytes; }

    public Capacity withReserved(long reserved, String why) {
        return new Capacity(bytes, reserved, source + "; " + why);
    }

    /**
     * A size as users and vendors write it: {@code 16GiB}, {@code 7000000KiB}, {@code 15.48G}
     * (TPU-style, binary), {@code 80GB} (a datasheet's, decimal: 80,000,000,000 B) or a byte count.
     * Rounded to a whole byte (15.48G is not one).
     *
     * @throws NumberFormatException with a message saying what was expected
     */
    public static long parseSize(String text) {
        String t = text.trim().replace(",", "").replace("_", "");
        String lower = t.toLowerCase(Locale.ROOT);
        long decimal = 0;
        for (String[] u : new String[][] {{"kb", "1000"}, {"mb", "1000000"}, {"gb", "1000000000"}, {"tb", "1000000000000"}}) {
            if (lower.endsWith(u[0])) {
                decimal = Long.parseLong(u[1]);
                t = t.substring(0, t.length() - 2).trim();
                break;
            }
        }
        if (decimal > 0) return Math.round(number(t, text) * decimal);
        try {
            return Sizes.parse(t);
        } catch (NumberFormatException e) {
            // 15.48G: a rounded figure of a binary unit
            int i = 0;
            while (i < t.length() && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.')) i++;
            if (i == 0 || i == t.length()) throw new NumberFormatException(message(text));
            long unit;
            try {
                unit = Sizes.parse("1" + t.substring(i));
            } catch (NumberFormatException bad) {
                throw new NumberFormatException(message(text));
            }
            return Math.round(number(t.substring(0, i), text) * unit);
        }
    }

    private static double number(String t, String text) {
        try {
            double v = Double.parseDouble(t);
            if (v >= 0 && v < 1e19) return v;
        } catch (NumberFormatException e) {
            // below
        }
        throw new NumberFormatException(message(text));
    }

    private static String message(String text) {
        return "expected a size such as 16GiB, 7000000KiB, 15.48G or 80GB, found '" + text + "'";
    }
}
