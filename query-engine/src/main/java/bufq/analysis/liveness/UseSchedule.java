package bufq.analysis.liveness;

import bufq.model.HloModule;
import bufq.model.HloUse;
import bufq.model.HloValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A value's uses placed on the schedule, and the stretches of its live range in which nothing reads
 * it. Pure functions of the module; cheap (a name lookup per use), so nothing is kept.
 *
 * <p>A step is <em>busy</em> for a value when it is born there (the start of its live range) or
 * when an instruction listed among its uses runs there; a step of its live range that is not busy is
 * <em>idle</em>. Uses whose instruction is not in the schedule, or runs outside the live range (a
 * while loop's initial value: XLA ends it where the loop's parameter takes over), keep no step busy.
 */
public final class UseSchedule {
    private UseSchedule() {}

    /**
     * One use with the step its instruction runs at.
     *
     * @param order position of the use in the dump's list
     * @param step  the user's step, or -1 when it is not in the schedule
     */
    public record TimedUse(HloUse use, int order, int step) {}

    /** A run of idle steps {@code from..to}, both inclusive. */
    public record Stretch(int from, int to) {
        public int steps() { return to - from + 1; }
        public boolean contains(int t) { return from <= t && t <= to; }
    }

    /** The value's uses in schedule order (then dump order); unscheduled users last. */
    public static List<TimedUse> timed(HloModule m, HloValue v) {
        List<HloUse> uses = v.uses();
        List<TimedUse> out = new ArrayList<>(uses.size());
        for (int i = 0; i < uses.size(); i++) out.add(new TimedUse(uses.get(i), i, m.timeOf(uses.get(i).user())));
        out.sort(Comparator.comparingInt((TimedUse u) -> u.step() < 0 ? Integer.MAX_VALUE : u.step())
                .thenComparingInt(TimedUse::order));
        return out;
    }

    /** Step of the first use at a scheduled step, or -1. */
    public static int firstUse(HloModule m, HloValue v) {
        int best = -1;
        for (HloUse u : v.uses()) {
            int t = m.timeOf(u.user());
            if (t >= 0 && (best < 0 || t < best)) best = t;
        }
        return best;
    }

    /** Step of the last use at a scheduled step, or -1. */
    public static int lastUse(HloModule m, HloValue v) {
        int best = -1;
        for (HloUse u : v.uses()) best = Math.max(best, m.timeOf(u.user()));
        return best;
    }

    /** Number of uses whose instruction is in the schedule. */
    public static int scheduledUses(HloModule m, HloValue v) {
        int n = 0;
        for (HloUse u : v.uses()) if (m.timeOf(u.user()) >= 0) n++;
        return n;
    }

    /** The busy steps of {@code v} inside its live range, ascending and distinct; empty without a range. */
    static int[] busySteps(HloModule m, HloValue v) {
        if (!v.hasRange()) return new int[0];
        List<HloUse> uses = v.uses();
        int[] t = new int[uses.size() + 1];
        int n = 0;
        t[n++] = v.rangeStart();
        for (HloUse u : uses) {
            int s = m.timeOf(u.user());
            if (s >= v.rangeStart() && s <= v.rangeEnd()) t[n++] = s;
        }
        Arrays.sort(t, 0, n);
        int k = 0;
        for (int i = 0; i < n; i++) if (k == 0 || t[i] != t[k - 1]) t[k++] = t[i];
        return Arrays.copyOf(t, k);
    }

    /** Idle stretches of {@code v} in schedule order; empty without a live range. */
    public static List<Stretch> idleStretches(HloModule m, HloValue v) {
        List<Stretch> out = new ArrayList<>();
        if (!v.hasRange()) return out;
        int[] busy = busySteps(m, v);
        for (int i = 0; i < busy.length; i++) {
            int from = busy[i] + 1, to = i + 1 < busy.length ? busy[i + 1] - 1 : v.rangeEnd();
            if (from <= to) out.add(new Stretch(from, to));
        }
        return out;
    }

    /** The longest idle stretch (the first of equal ones), or null when there is none. */
    public static Stretch longestIdle(HloModule m, HloValue v) {
        Stretch best = null;
        for (Stretch s : idleStretches(m, v)) if (best == null || s.steps() > best.steps()) best = s;
        return best;
    }

    /** The idle stretch that contains step {@code t}, or null. */
    public static Stretch idleAt(HloModule m, HloValue v, int t) {
        if (!v.liveAt(t)) return null;
        for (Stretch s : idleStretches(m, v)) if (s.contains(t)) return s;
        return null;
    }
}
