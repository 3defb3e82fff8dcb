package bufq.analysis.oom;

import bufq.units.PrintedSize;
import bufq.units.Units;

import java.math.BigDecimal;
import java.util.List;


/**
 * Finds the figures of a message line that no byte count can be: a number more than 64 bits hold
 * ({@code allocating 99999999999999999999999 bytes}, a BFC {@code Limit:} that large) and a
 * negative size ({@code -4,608,000,000 B}, {@code Used -18.53K of -16.00K}). {@link PrintedSize#parse}
 * reads neither (nothing is clamped, so no such figure becomes a request or a capacity); this says
 * where each was, by line and column of the text as pasted, as the dump reader does.
 */
final class FigureCheck {
    private FigureCheck() {}

    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    /** Adds a warning to {@code out} for each such figure of {@code raw}, line {@code line} as pasted. */
    static void scan(String raw, int line, List<OomWarning> out) {
        // a balance the TPU runtime prints below zero when a reservation does not fit (pytorch/xla#1735)
        if (!suspect(raw) || raw.contains("Available after request")) return;
        int n = raw.length();
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c < '0' || c > '9') continue;
            if (i > 0 && (Character.isLetterOrDigit(raw.charAt(i - 1)) || raw.charAt(i - 1) == '.' || raw.charAt(i - 1) == '_'))
                continue;
            boolean negative = i > 0 && raw.charAt(i - 1) == '-' && (i == 1 || !Character.isLetterOrDigit(raw.charAt(i - 2)));
            int j = i;
            while (j < n && (Character.isDigit(raw.charAt(j)) || raw.charAt(j) == ','
                    || raw.charAt(j) == '.' && j + 1 < n && Character.isDigit(raw.charAt(j + 1)))) j++;
            while (j > i && raw.charAt(j - 1) == ',') j--;
            int unitStart = j < n && raw.charAt(j) == ' ' ? j + 1 : j, k = unitStart;
            while (k < n && Character.isLetter(raw.charAt(k)) && k - unitStart < 6) k++;
            String unit = k == unitStart ? "" : raw.substring(unitStart, k);
            boolean word = k < n && Character.isLetter(raw.charAt(k));
            Long factor = word ? null : unit.isEmpty() ? Long.valueOf(1) : Units.factor(unit);
            if (factor == null && !unit.isEmpty() && unitStart == j) {
                i = j;           // a name such as 7f00ab or 12abc, not a figure
                continue;
            }
            boolean sized = factor != null && !unit.isEmpty();
            if (negative && sized)
                out.add(refused(line, i, "negative size -" + raw.substring(i, j) + " " + unit));
            long f = factor == null ? 1 : factor;
            int digits = 0;
            for (int k2 = i; k2 < j && raw.charAt(k2) != '.'; k2++) if (raw.charAt(k2) != ',') digits++;
            // fewer than 10^digits times f: surely within 63 bits, no exact arithmetic needed
            if (digits * 3322 / 1000 + 1 + (64 - Long.numberOfLeadingZeros(f)) <= 62) {
                i = j;
                continue;
            }
            String number = raw.substring(i, j);
            BigDecimal v;
            try {
                v = new BigDecimal(number.replace(",", ""));
            } catch (NumberFormatException e) {
                i = j;
                continue;
            }
            if (v.multiply(BigDecimal.valueOf(f)).compareTo(LONG_MAX) > 0)
                out.add(refused(line, i + 1, "number too large for 64 bits (" + abbreviated(number) + (sized ? " " + unit : "") + ")"));
            i = j;
        }
    }

    /**
     * Whether {@code raw} may hold such a figure, in one pass of plain comparisons: a run of 15 or more
     * digits, a minus before a digit, or a digit before a unit that multiplies by 2^40 or more.
     */
    private static boolean suspect(String raw) {
        int run = 0, n = raw.length();
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c >= '0' && c <= '9') {
                if (++run >= 15) return true;
                if (i > 0 && raw.charAt(i - 1) == '-') return true;
                if (i + 1 < n) {
                    char u = raw.charAt(i + 1) == ' ' && i + 2 < n ? raw.charAt(i + 2) : raw.charAt(i + 1);
                    if (u == 'T' || u == 'P' || u == 'E' || u == 't' || u == 'p' || u == 'e') return true;
                }
            } else if (c != ',' && c != '.') {
                run = 0;
            }
        }
        return false;
    }

    private static OomWarning refused(int line, int column, String what) {
        return new OomWarning(line, "column " + column + ": " + what + ": figure not read (expected a byte count from 0 to "
                + Units.grouped(Long.MAX_VALUE) + ")");
    }

    private static String abbreviated(String number) {
        return number.length() <= 40 ? number : number.substring(0, 20) + "..." + " (" + number.length() + " digits)";
    }
}
