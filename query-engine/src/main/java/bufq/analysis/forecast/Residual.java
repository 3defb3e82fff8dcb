package bufq.analysis.forecast;

/**
 * A loaded size forecast from the others: the figures as compiled and as forecast.
 *
 * @param why null, or why it could not be forecast (the others are no series, or too few)
 */
public record Residual(long n, String handle, long peakActual, Long peakForecast, long needsActual, Long needsForecast,
                       String why) {
    public Long peakError() { return peakForecast == null ? null : peakForecast - peakActual; }
    public Long needsError() { return needsForecast == null ? null : needsForecast - needsActual; }
    public Double peakErrorFraction() { return peakForecast == null || peakActual == 0 ? null : (double) (peakForecast - peakActual) / peakActual; }
    public Double needsErrorFraction() { return needsForecast == null || needsActual <= 0 ? null : (double) (needsForecast - needsActual) / needsActual; }
}
