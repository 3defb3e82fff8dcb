package bufq.model;

/**
 * A part of a dump that a module may read only when a question needs it. The reader reads the rest
 * of a module at load; each part here is read on first use, once, unless the load asked for it.
 */
public enum DumpPart {
    /**
     * The {@code Used values:} section (a jaxlib 0.10 set's {@code -buffer-assignment-values.txt}):
     * each value's positions and uses, and the instructions' text (opcode, operands, shape,
     * op_name, source). Often two thirds of a module's bytes.
     */
    USED_VALUES
}
