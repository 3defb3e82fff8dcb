package bufq.eval;

import bufq.model.HloModule;
import bufq.liveness.Liveness;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * One program point of the schedule: the instruction at {@code time}, the logical bytes and number
 * of values live there (XLA's definition: both ends of a range inclusive), and the bytes occupied
 * then (per allocation, each byte of the live values' ranges once).
 */
public record Step(int time, String instruction, long liveBytes, long occupiedBytes, int liveValues) {

    /** Every step 0..maxTime of {@code m}, read from the module's {@link Liveness}; empty without a schedule. */
    public static List<Step> of(HloModule m) {
        Liveness l = Liveness.of(m);
        List<String> seq = m.sequence();
        return new Steps(l, seq);
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
