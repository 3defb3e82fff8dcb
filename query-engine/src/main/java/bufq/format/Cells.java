package bufq.format;

import bufq.table.ColumnType;
import bufq.table.Sizes;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;

/**
 * How one cell becomes text, shared by the formatters. Human formats (table, markdown) shorten
 * sizes and show fractions as percentages; data formats (csv, tsv) keep the raw figures.
 */
final class Cells {
    /** What the human formats print for a null cell (data formats leave it empty). */
    static final String NULL = "null";

    private Cells() {}

    static boolean numeric(ColumnType t) {
        return t == ColumnType.INT || t == ColumnType.BYTES || t == ColumnType.FLOAT || t == ColumnType.PERCENT;
    }

    /** Text for people: sizes human-readable unless {@code rawSizes}, fractions as {@code 12.5%}. */
    static String human(Object v, ColumnType type, FormatOptions o) {
        if (v == null) return NULL;
        return switch (type) {
            case BYTES -> v instanceof Number n && !o.rawSizes() ? Sizes.human(n.longValue()) : scalar(v);
            case PERCENT -> v instanceof Number n ? percent(n.doubleValue()) : scalar(v);
            case FLOAT -> v instanceof Number n ? shortDouble(n.doubleValue()) : scalar(v);
            default -> scalar(v);
        };
    }

    /** Text for data formats: exact numbers, booleans as true/false, lists as {@code [a, b]}. */
    static String raw(Object v) {
        return v == null ? "" : scalar(v);
    }

    private static String scalar(Object v) {
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

    /** At most three decimals, trailing zeros dropped: {@code 2.5}, {@code 1234.568}; tiny values as {@code 1.0E-7}. */
    static String shortDouble(double d) {
        if (!Double.isFinite(d)) return String.valueOf(d);
        if (d != 0 && Math.abs(d) < 0.001) return Double.toString(d); // keep tiny values visible
        BigDecimal b = new BigDecimal(d).setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
        if (b.scale() < 1) b = b.setScale(1);
        return b.toPlainString();
    }

    /** The shortest text that reads back as the same double; exponent notation only for extreme magnitudes. */
    static String exactDouble(double d) {
        if (!Double.isFinite(d)) return String.valueOf(d);
        double abs = Math.abs(d);
        if (abs != 0 && (abs < 1e-6 || abs >= 1e15)) return Double.toString(d);
        BigDecimal b = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        if (b.scale() < 1) b = b.setScale(1);
        return b.toPlainString();
    }
}
