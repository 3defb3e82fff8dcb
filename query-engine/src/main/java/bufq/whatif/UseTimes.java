package bufq.whatif;

import bufq.model.HloModule;
import bufq.model.HloUse;
import bufq.model.HloValue;

import java.util.Arrays;

/** The steps at which a value is read: its uses' instructions placed in the schedule. */
final class UseTimes {
    private UseTimes() {}

    /** Steps of {@code v}'s uses, ascending and distinct; uses outside the schedule are left out. */
    static int[] of(HloModule m, HloValue v) {
        int[] out = new int[v.uses().size()];
        int n = 0;
        for (HloUse u : v.uses()) {
            int t = m.timeOf(u.user());
            if (t >= 0) out[n++] = t;
        }
        int[] ts = Arrays.copyOf(out, n);
        Arrays.sort(ts);
        return Arrays.stream(ts).distinct().toArray();
    }

    /** The last step at which {@code v} is read, or -1 when the dump lists no use in the schedule. */
    static int last(HloModule m, HloValue v) {
        int best = -1;
        for (HloUse u : v.uses()) best = Math.max(best, m.timeOf(u.user()));
        return best;
    }
}
