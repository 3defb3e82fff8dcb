package bufq.analysis;

import bufq.model.HloModule;
import java.util.Collections;
import java.util.Map;
import java.util.OptionalInt;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Whole-module sweeps the analyses share: the live profile per colour and XLA's peak moment. A
 * {@code peak} asked for the profile three times and {@code peak}, {@code timeline}, {@code blame}
 * and {@code check} each sweep a million values again; a module is immutable, so each is computed
 * once. The map holds modules weakly and a memo never refers to its module. Thread-safe.
 */
final class AnalysisMemo {
    private static final Map<HloModule, AnalysisMemo> MEMO = Collections.synchronizedMap(new WeakHashMap<>());

    private final Map<OptionalInt, LiveProfile> profiles = new ConcurrentHashMap<>();
    private volatile Integer xlaPeakMoment;

    private AnalysisMemo() {}

    private static AnalysisMemo of(HloModule m) {
        return MEMO.computeIfAbsent(m, k -> new AnalysisMemo());
    }

    /** The profile of {@code color} (or all colours), computed by {@code compute} on first use. */
    static LiveProfile profile(HloModule m, OptionalInt color, Supplier<LiveProfile> compute) {
        AnalysisMemo memo = of(m);
        LiveProfile p = memo.profiles.get(color);
        if (p == null) {
            p = compute.get();   // outside any lock; a race computes the same profile twice, harmlessly
            LiveProfile old = memo.profiles.putIfAbsent(color, p);
            if (old != null) p = old;
        }
        return p;
    }

    static int xlaPeakMoment(HloModule m, IntSupplier compute) {
        AnalysisMemo memo = of(m);
        Integer t = memo.xlaPeakMoment;
        if (t == null) memo.xlaPeakMoment = t = compute.getAsInt();
        return t;
    }
}
