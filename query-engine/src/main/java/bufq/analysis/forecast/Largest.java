package bufq.analysis.forecast;

/**
 * The largest size that fits: one case of {@link Forecast#largest}.
 *
 * @param largest the largest whole size that fits, -1 when none does
 * @param bytes   what it needs then (needs_bytes, or with the held arrays), -1 when none fits
 * @param next    the next whole size, which does not fit; -1 when none was found below the bound
 */
public record Largest(String basis, long largest, long bytes, long next, long nextBytes) {}
