package bufq.table;

import java.util.Comparator;

/**
 * Orders names for display as people read them: runs of digits compare by value, so {@code copy.2}
 * comes before {@code copy.10}, and {@code copy.10} before {@code copy.100}.
 */
public final class NaturalOrder implements Comparator<String> {
    public static final NaturalOrder INSTANCE = new NaturalOrder();

    private NaturalOrder() {}

    @Override public int compare(String a, String b) {
        int i = 0, j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i), y = b.charAt(j);
            if (isDigit(x) && isDigit(y)) {
                int si = i, sj = j;
                while (si < a.length() - 1 && a.charAt(si) == '0' && isDigit(a.charAt(si + 1))) si++;
                while (sj < b.length() - 1 && b.charAt(sj) == '0' && isDigit(b.charAt(sj + 1))) sj++;
                int ei = si, ej = sj;
                while (ei < a.length() && isDigit(a.charAt(ei))) ei++;
                while (ej < b.length() && isDigit(b.charAt(ej))) ej++;
                // Fewer significant digits is the smaller number; equal lengths compare digit by digit.
                if (ei - si != ej - sj) return (ei - si) - (ej - sj);
                for (int k = 0; k < ei - si; k++) {
                    int d = a.charAt(si + k) - b.charAt(sj + k);
                    if (d != 0) return d;
                }
                // Same value: the one with fewer leading zeros first, so the order stays total.
                if (ei - i != ej - j) return (ei - i) - (ej - j);
                i = ei;
                j = ej;
            } else {
                if (x != y) return x - y;
                i++;
                j++;
            }
        }
        return (a.length() - i) - (b.length() - j);
    }

    private static boolean isDigit(char c) { return c >= '0' && c <= '9'; }
}
