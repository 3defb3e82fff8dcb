package bufq.eval;

import bufq.lang.Diagnostic;
import bufq.lang.NearNames;
import bufq.lang.QueryException;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * One program point of the schedule: the instruction at {@code time}, the logical bytes and number
 * of values live there (XLA's definition: both ends of a range inclusive), and the bytes occupied
 * then (per allocation, each byte of the live values' ranges once).
 *
 * <p>And the one place a step written by a user becomes a step of a module ({@link #resolve}):
 * {@code peak}, {@code claimed_peak}, a step number, or a scheduled instruction's name. Queries
 * ({@code live at fusion.1}) and commands ({@code blame at fusion.1}, {@code export pprof f at 40})
 * both resolve through it, so a name resolves the same everywhere and a typo gets the same "did you mean".
 */
public record Step(int time, String instruction, long liveBytes, long occupiedBytes, int liveValues) {

    /** Every step 0..maxTime of {@code m}, read from the module's {@link Liveness}; empty without a schedule. */
    public static List<Step> of(HloModule m) {
        Liveness l = Liveness.of(m);
        List<String> seq = m.sequence();
        return new Steps(l, seq);
    }

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

    /** A read-only view: a step row is made when asked, from the arrays the module already holds. */
    private static final class Steps extends AbstractList<Step> implements RandomAccess {
        private final Liveness l;
        private final List<String> seq;

        Steps(Liveness l, List<String> seq) {
            this.l = l;
            this.seq = seq;
        }

        @Override public Step get(int t) {
            Objects.checkIndex(t, l.steps());
            return new Step(t, t < seq.size() ? seq.get(t) : null, l.liveBytes(t), l.occupiedBytes(t), l.liveValues(t));
        }

        @Override public int size() { return l.steps(); }
    }
}
