package bufq.eval;

import bufq.model.HloValue;
import bufq.model.HloModule;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * What queries derive from a whole module and would otherwise recompute on every run: the per-step
 * counts behind {@code steps} and the live bytes behind {@code instructions.live_bytes}. A module is
 * immutable, so these are computed once, on first use, and dropped with the module (the map holds
 * modules weakly and a memo never refers to its module). Thread-safe.
 */
final class ModuleMemo {
    private static final Map<HloModule, ModuleMemo> MEMO = Collections.synchronizedMap(new WeakHashMap<>());

    private volatile List<Step> steps;
    private volatile long[] liveBytes;      // exact sums per step, or NONE when they overflow
    private static final long[] NONE = new long[0];

    private ModuleMemo() {}

    static ModuleMemo of(HloModule m) {
        return MEMO.computeIfAbsent(m, k -> new ModuleMemo());
    }

    List<Step> steps(HloModule m) {
        List<Step> s = steps;
        if (s == null) {
            synchronized (this) {
                s = steps;
                if (s == null) steps = s = Collections.unmodifiableList(Step.compute(m));
            }
        }
        return s;
    }

    /** {@link HloModule#liveBytesAt} for {@code t}, from one sweep of the module instead of one lookup per call. */
    long liveBytesAt(HloModule m, int t) {
        long[] b = liveBytes;
        if (b == null) {
            synchronized (this) {
                b = liveBytes;
                if (b == null) liveBytes = b = exactLiveBytes(m);
            }
        }
        return t >= 0 && t < b.length ? b[t] : m.liveBytesAt(t);
    }

    /**
     * Logical bytes of the values whose range contains each step 0..steps-1, exactly as summing the
     * values live there would give, or {@link #NONE} when some sum overflows (the caller then asks
     * the module, which fails as before). Each partial sum is a subset of the values live at a step.
     */
    private static long[] exactLiveBytes(HloModule m) {
        int n = m.steps();
        long[] add = new long[n], drop = new long[n + 1];
        try {
            for (HloValue v : m.values()) {
                if (!v.hasRange()) continue;
                int s = Math.max(v.rangeStart(), 0), e = Math.min(v.rangeEnd(), n - 1);
                if (s > e) continue;
                long b = v.logicalSize();
                add[s] = Math.addExact(add[s], b);
                drop[e + 1] = Math.addExact(drop[e + 1], b);
            }
            long[] out = new long[n];
            long live = 0;
            for (int t = 0; t < n; t++) out[t] = live = Math.addExact(Math.subtractExact(live, drop[t]), add[t]);
            return out;
        } catch (ArithmeticException e) {
            return NONE;
        }
    }
}
