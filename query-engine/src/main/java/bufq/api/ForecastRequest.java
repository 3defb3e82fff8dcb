package bufq.api;

/**
 * What {@code forecast} and {@code bufq.forecast(text)} ask, as the shell's grammar for them reads it. Immutable.
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
}
