package bufq.analysis.check;

import bufq.model.HloModule;

/**
 * A named consistency or liveness check over one module. Built-in rules come from
 * {@link Checks#builtins}; scripts add their own. A rule reports through {@code r} and must not keep
 * state between runs; an exception it throws becomes an ERROR finding, never a crash.
 */
public interface CheckRule {
    /** Short lowercase name with dashes, e.g. {@code outside-allocation}. */
    String name();

    void run(HloModule m, Reporter r);
}
