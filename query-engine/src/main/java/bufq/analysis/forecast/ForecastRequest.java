package bufq.analysis.forecast;

import bufq.lang.SqlHabits;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code forecast} and {@code bufq.forecast(text)} take, parsed once. Immutable.
 *
 * <pre>
 * forecast := [DIM] 'at' N ['limit' K]
 *           | [DIM] 'fit' ['at' N]
 *           | 'chips' 'at' N
 *           | 'chips' 'fit'
 * </pre>
 *
 * @param dimension {@code NAME[AXIS]} or {@code NAME}, null to find the one that varies
 * @param fit       {@code fit}: the largest size that fits rather than the figures at {@code n}
 * @param n         the size, -1 when {@code fit} names none
 * @param limit     rows of the laws table, -1 for all
 * @param chips     {@code chips}: one compile's per-device bytes at another device count, not a series
 */
public record ForecastRequest(String dimension, boolean fit, long n, int limit, boolean chips) {
    /** Laws listed by default. */
    public static final int LIMIT = 20;

    public static final String USAGE = "forecast [DIM] at N [limit K] | forecast [DIM] fit [at N] | forecast chips (at N | fit)";

    /** @throws IllegalArgumentException saying what was expected, and where */
    public static ForecastRequest parse(String text) {
        List<String> w = new ArrayList<>();
        for (String s : SqlHabits.withoutTerminator(text).split("\\s+")) if (!s.isEmpty()) w.add(s);
        if (!w.isEmpty() && is(w.get(0), "chips")) return chips(w);
        int i = 0;
        String dim = null;
        if (i < w.size() && !is(w.get(i), "at") && !is(w.get(i), "fit")) dim = w.get(i++);
        if (i >= w.size()) throw new IllegalArgumentException("expected 'at N' or 'fit' " + (dim == null ? "" : "after '" + dim + "' ") + "; usage: " + USAGE);
        boolean fit = is(w.get(i), "fit");
        if (fit) i++;
        else if (!is(w.get(i), "at")) throw new IllegalArgumentException("expected 'at N' or 'fit', found '" + w.get(i) + "'; usage: " + USAGE);
        long n = -1;
        if (i < w.size() && is(w.get(i), "at")) {
            if (i + 1 >= w.size()) throw new IllegalArgumentException("expected a size after 'at' (a whole number such as 64)");
            n = whole(w.get(i + 1), "a size after 'at'");
            if (n <= 0) throw new IllegalArgumentException("a size is 1 or more, not " + w.get(i + 1));
            i += 2;
        } else if (!fit) {
            throw new IllegalArgumentException("expected 'at N'; usage: " + USAGE);
        }
        int limit = LIMIT;
        if (!fit && i < w.size() && is(w.get(i), "limit")) {
            if (i + 1 >= w.size()) throw new IllegalArgumentException("expected a row count after 'limit' (-1 for all)");
            long l = whole(w.get(i + 1), "a row count after 'limit'");
            if (l < -1 || l > Integer.MAX_VALUE) throw new IllegalArgumentException("limit is -1 (all) or a row count, not " + w.get(i + 1));
            limit = (int) l;
            i += 2;
        }
        if (i < w.size()) throw new IllegalArgumentException("unexpected '" + w.get(i) + "'; usage: " + USAGE);
        return new ForecastRequest(dim, fit, n, limit, false);
    }

    /** {@code 'chips' ('at' N | 'fit')}: the words after {@code forecast}, the first {@code chips}. */
    private static ForecastRequest chips(List<String> w) {
        if (w.size() == 2 && is(w.get(1), "fit")) return new ForecastRequest(null, true, -1, LIMIT, true);
        if (w.size() >= 2 && is(w.get(1), "at")) {
            if (w.size() < 3) throw new IllegalArgumentException("expected a device count after 'chips at' (a whole number such as 8)");
            long n = whole(w.get(2), "a device count after 'chips at'");
            if (n <= 0) throw new IllegalArgumentException("a device count is 1 or more, not " + w.get(2));
            if (w.size() > 3) throw new IllegalArgumentException("unexpected '" + w.get(3) + "'; usage: " + USAGE);
            return new ForecastRequest(null, false, n, LIMIT, true);
        }
        throw new IllegalArgumentException("expected 'at N' or 'fit' after 'chips'" + (w.size() > 1 ? ", found '" + w.get(1) + "'" : "")
                + "; usage: " + USAGE);
    }

    private static boolean is(String word, String keyword) {
        return word.equalsIgnoreCase(keyword);
    }

    private static long whole(String s, String what) {
        try {
            return Long.parseLong(s.replace("_", "").replace(",", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected " + what + " (a whole number), found '" + s + "'");
        }
    }
}
