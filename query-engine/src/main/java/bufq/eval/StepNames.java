package bufq.eval;

import bufq.lang.Diagnostic;
import bufq.lang.NearNames;
import bufq.lang.QueryException;
import bufq.liveness.Liveness;
import bufq.model.HloModule;

/**
 * The one place a step written by a user becomes a step of a module: {@code peak},
 * {@code claimed_peak}, a step number, or a scheduled instruction's name. Queries ({@code live at
 * fusion.1}) and commands ({@code blame at fusion.1}, {@code export pprof f at 40}) both resolve
 * through it, so a name resolves the same everywhere and a typo gets the same "did you mean".
 */
public final class StepNames {
    private StepNames() {}

    /**
     * The step a scheduled instruction {@code name} runs at; the error spans {@code [start, end)}
     * and suggests the nearest scheduled names.
     */
    public static int named(HloModule m, String name, int start, int end) throws QueryException {
        int time = m.timeOf(name);
        if (time >= 0) return time;
        if (m.instruction(name) != null)
            throw new QueryException(start, end, "instruction '" + name + "' is not in the instruction sequence");
        throw new QueryException(new Diagnostic(start, end, "unknown instruction '" + name + "' in module " + m.handle()
                + "; expected a step number, 'peak', 'claimed_peak' or a scheduled instruction name", NearNames.near(name, m.sequence())));
    }

    /**
     * {@code at} ({@code peak}, {@code claimed_peak}, a step from 0 to the last, or a scheduled
     * instruction's name) as a step of {@code m}; errors span the whole text.
     */
    public static int resolve(HloModule m, String at) throws QueryException {
        int end = at.length();
        if (m.steps() == 0) throw new QueryException(0, end, m.handle() + " has no live ranges, so no step to name");
        switch (at) {
            case "peak" -> {
                int p = Liveness.of(m).peakTime();
                // No value is live at any step (a schedule without values, ranges that hold no step).
                if (p < 0) throw new QueryException(0, end, m.handle() + " has no peak: no value is live at any step; name one with 'at STEP'");
                return p;
            }
            case "claimed_peak" -> {
                int c = Liveness.of(m).claimedPeakTime();
                if (c < 0 || c >= m.steps())
                    throw new QueryException(0, end, m.handle() + " has no peak label of its own; use 'at peak' or a step");
                return c;
            }
            default -> {
                if (!at.isEmpty() && at.chars().allMatch(Character::isDigit)) {
                    try {
                        int t = Integer.parseInt(at);
                        if (t < m.steps()) return t;
                    } catch (NumberFormatException e) {
                        // past an int: the message below says what is expected
                    }
                    throw new QueryException(0, end, "'at' takes peak, claimed_peak or a step from 0 to " + (m.steps() - 1)
                            + ", not '" + at + "'");
                }
                if (m.timeOf(at) >= 0) return m.timeOf(at);
                throw new QueryException(new Diagnostic(0, end, "'at' takes peak, claimed_peak, a step from 0 to " + (m.steps() - 1)
                        + " or a scheduled instruction's name, not '" + at + "'", NearNames.near(at, m.sequence())));
            }
        }
    }
}
