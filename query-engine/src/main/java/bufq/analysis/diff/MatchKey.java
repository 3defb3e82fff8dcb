package bufq.analysis.diff;

/**
 * What survives a recompilation: instruction names change, but a value's framework op_name, source
 * line, shape and role do not. Two compilations are compared as multisets of these keys.
 *
 * @param opGroup {@code op_name}, or {@code (opcode)} when the instruction has none, or {@code (none)}
 * @param source  {@code file:line}, or {@code (none)}
 * @param shape   the shape as printed, layout included (a relayout is a real difference)
 */
public record MatchKey(String opGroup, String source, String shape, ValueRole role) implements Comparable<MatchKey> {
    @Override public int compareTo(MatchKey o) {
        int c = opGroup.compareTo(o.opGroup);
        if (c == 0) c = source.compareTo(o.source);
        if (c == 0) c = shape.compareTo(o.shape);
        if (c == 0) c = role.compareTo(o.role);
        return c;
    }
}
