package bufq.analysis.diff;

import bufq.model.HloModule;
import bufq.model.HloValue;

/**
 * What survives a recompilation: instruction names change, but a value's framework op_name, source
 * line, shape and role do not. Two compilations are compared as multisets of these keys.
 *
 * @param opGroup {@code op_name}, or {@code (opcode)} when the instruction has none, or {@code (none)}
 * @param source  {@code file:line}, or {@code (none)}
 * @param shape   the shape as printed, layout included (a relayout is a real difference)
 */
public record MatchKey(String opGroup, String source, String shape, ValueRole role) implements Comparable<MatchKey> {
    /** The key {@code diff} matches value {@code v} of {@code m} by (it reads the Used values section). */
    public static MatchKey of(HloModule m, HloValue v) {
        return Side.keyOf(m, v);
    }

    @Override public int compareTo(MatchKey o) {
        int c = opGroup.compareTo(o.opGroup);
        if (c == 0) c = source.compareTo(o.source);
        if (c == 0) c = shape.compareTo(o.shape);
        if (c == 0) c = role.compareTo(o.role);
        return c;
    }
}
