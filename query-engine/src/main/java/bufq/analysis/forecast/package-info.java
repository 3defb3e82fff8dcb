/**
 * How big can it get: {@link bufq.analysis.forecast.Forecast} takes one program loaded at several
 * sizes, pairs its values as {@code diff} does, fits each shape as an affine law of the size, and
 * sweeps the program at a size never compiled as a compiled module is swept: its peak,
 * {@code needs_bytes}, the largest size that fits a capacity, and each figure's leave-one-out
 * residual; {@code bufq.api.ForecastRequest} is what a client asks of it. Depends on {@code model}, {@code liveness}, {@code analysis.diff},
 * {@code fit} and {@code table}.
 */
package bufq.analysis.forecast;
