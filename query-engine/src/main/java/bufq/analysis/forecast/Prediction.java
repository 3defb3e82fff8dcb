package bufq.analysis.forecast;

import bufq.model.HloModule;

/**
 * The program at size {@code n}.
 *
 * @param module   the forecast module (queries, {@code fit} take it as they take a loaded one)
 * @param template the loaded module whose schedule, ranges and allocations it keeps
 */
public record Prediction(long n, HloModule module, HloModule template, long peakBytes, int peakTime,
                         String peakInstruction, long liveBytes, long needsBytes) {}
