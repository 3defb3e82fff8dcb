package bufq.eval;

/**
 * Reads one field of a row (HloValue, BufferAllocation, HloInstruction or {@link Step}). Returns
 * Long, Double, String, Boolean, List or null as the field's column type says.
 */
@FunctionalInterface
public interface Getter {
    Object get(Object row, EvalContext ctx);
}
