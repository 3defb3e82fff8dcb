package bufq.format;

import bufq.table.ColumnType;
import bufq.table.Holding;
import bufq.table.Table;
import bufq.units.PrintedSize;
import bufq.units.Units;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How one cell becomes text, shared by the formatters. Human formats (table, markdown) shorten
 * sizes and show fractions as percentages; data formats (csv, tsv) keep the raw figures.
 */
final class Cells {
    /** What the human formats print for a null inside a list ({@code [a, null]}); a null cell is empty, as in data formats. */
    static final String NULL = "null";

    private Cells() {}

    static boolean numeric(ColumnType t) {
        return t == ColumnType.INT || t == ColumnType.BYTES || t == ColumnType.FLOAT || t == ColumnType.PERCENT;
    }

    /** Text for people: sizes human-readable unless {@code rawSizes}, fractions as {@code 12.5%}. */
    static String human(Object v, ColumnType type, FormatOptions o) {
        if (v == null) return "";
        return switch (type) {
            case BYTES -> v instanceof Number n && !o.rawSizes() ? Units.human(n.longValue()) : scalar(v);
            case PERCENT -> v instanceof Number n ? percent(n.doubleValue()) : scalar(v);
            case FLOAT -> v instanceof Number n ? shortDouble(n.doubleValue()) : scalar(v);
            case LIST -> v instanceof List<?> l && !o.rawSizes() ? list(l) : scalar(v);
            default -> scalar(v);
        };
    }

    /** Text for data formats: exact numbers, booleans as true/false, lists as {@code [a, b]}. */
    static String raw(Object v) {
        return v == null ? "" : scalar(v);
    }

    /** A list for people: a {@link Holding}'s bytes human-readable ({@code [w1 16.0MiB, x 2.0MiB]}). */
    private static String list(List<?> l) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < l.size(); i++) {
            if (i > 0) b.append(", ");
            Object item = l.get(i);
            b.append(item instanceof Holding h ? h.name() + " " + Units.human(h.bytes()) : item == null ? NULL : scalar(item));
        }
        return b.append(']').toString();
    }

    private static String scalar(Object v) {
        if (v instanceof Holding h) return h.name() + " " + h.bytes();
        if (v instanceof PrintedSize p) return Units.describe(p);
        if (v instanceof Double d) return exactDouble(d);
        if (v instanceof Float f) return exactDouble(f.doubleValue());
        if (v instanceof List<?> l) {
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) b.append(", ");
                b.append(l.get(i) == null ? NULL : scalar(l.get(i)));
            }
            return b.append(']').toString();
        }
        return String.valueOf(v);
    }

    static String percent(double fraction) {
        if (!Double.isFinite(fraction)) return String.valueOf(fraction);
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }

    /** Smallest magnitude written without an exponent: past it the zeros hide the digits. */
    static final double PLAIN_FLOOR = 1e-12;

    /**
     * At most three decimals, trailing zeros dropped: {@code 2.5}, {@code 1234.568}; smaller values
     * keep four significant digits, still without an exponent ({@code 0.0000009537}); only values
     * below {@link #PLAIN_FLOOR} take one ({@code 1.5e-15}).
     */
    static String shortDouble(double d) {
        if (!Double.isFinite(d)) return String.valueOf(d);
        double abs = Math.abs(d);
        if (abs != 0 && abs < PLAIN_FLOOR) return String.format(Locale.ROOT, "%.3e", d).replaceFirst("\\.?0*e", "e");
        if (abs != 0 && abs < 0.001) return new BigDecimal(d).round(new MathContext(4, RoundingMode.HALF_EVEN)).stripTrailingZeros().toPlainString();
        BigDecimal b = new BigDecimal(d).setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
        if (b.scale() < 1) b = b.setScale(1);
        return b.toPlainString();
    }

    /**
     * The shortest text that reads back as the same double (csv, tsv, json); exponent notation only
     * below {@link #PLAIN_FLOOR} or from 1e15 up ({@code 0.00000095367431640625}, not {@code 9.5367431640625E-7}).
     */
    static String exactDouble(double d) {
        if (!Double.isFinite(d)) return String.valueOf(d);
        double abs = Math.abs(d);
        if (abs != 0 && (abs < PLAIN_FLOOR || abs >= 1e15)) return Double.toString(d);
        BigDecimal b = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        if (b.scale() < 1) b = b.setScale(1);
        return b.toPlainString();
    }

    /**
     * The notes of the columns {@code shown} (indexes in order), each once: what goes under a table
     * beside its own notes. A column left out takes its note with it.
     */
    static List<String> columnNotes(Table table, int[] shown) {
        List<String> notes = new ArrayList<>();
        for (int c : shown) {
            String n = table.columns().get(c).note();
            if (n != null && !notes.contains(n)) notes.add(n);
        }
        return notes;
    }

    /** As {@link TableFormatter#visible(String, boolean)}, for every format. */
    static String visible(String s, boolean keepLines) {
        int i = 0;
        while (i < s.length() && !(isControl(s.charAt(i)) && !(keepLines && isLayout(s.charAt(i))))) i++;
        if (i == s.length()) return s;
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (!isControl(ch) || keepLines && isLayout(ch)) b.append(ch);
            else if (ch == '\n') b.append("\\n");
            else if (ch == '\t') b.append("\\t");
            else if (ch == '\r') b.append("\\r");
            else if (ch > 0xff) b.append(String.format("\\u%04x", (int) ch));
            else b.append(String.format("\\x%02x", (int) ch));
        }
        return b.toString();
    }

    private static boolean isLayout(char ch) { return ch == '\n' || ch == '\t'; }

    /**
     * C0 and C1 controls, and what reorders or breaks a line as a terminal shows it: the bidi
     * controls (U+202E, RIGHT-TO-LEFT OVERRIDE, makes {@code exe.txt} of {@code txt.exe}) and the
     * line and paragraph separators. Shown as a backslash, u and four hex digits.
     */
    static boolean isControl(char ch) {
        return ch < 0x20 || ch == 0x7f || (ch >= 0x80 && ch < 0xa0) || ch >= 0x2000 && isFormatting(ch) || ch == 0x061c;
    }

    private static boolean isFormatting(char ch) {
        return ch == 0x200e || ch == 0x200f || (ch >= 0x2028 && ch <= 0x202e) || (ch >= 0x2066 && ch <= 0x2069);
    }

    /** Appends {@code text} as lines of at most {@code width} columns, broken at spaces (0 = one line). */
    static void wrap(String text, int width, StringBuilder out) {
        if (width <= 0 || displayWidth(text) <= width) {
            out.append(text).append('\n');
            return;
        }
        int start = 0;
        while (start < text.length()) {
            if (displayWidth(text.substring(start)) <= width) {
                out.append(text, start, text.length()).append('\n');
                break;
            }
            int limit = text.offsetByCodePoints(start, width);
            int brk = text.lastIndexOf(' ', limit);
            if (brk <= start) {
                // one word longer than the line: break at the next space, or not at all
                brk = text.indexOf(' ', limit);
                if (brk < 0) brk = text.length();
            }
            out.append(text, start, brk).append('\n');
            start = brk;
            while (start < text.length() && text.charAt(start) == ' ') start++;
        }
    }

    /** Terminal columns, counting code points (the dumps' box-drawing and × are one column each). */
    static int displayWidth(String s) {
        return s.codePointCount(0, s.length());
    }
}
