package bufq.model;

import java.util.List;

/**
 * An instruction as printed in a value's {@code from instruction:} line, joined with its place in the
 * InstructionSequence.
 *
 * @param time       position in the sequence, or -1 when not sequenced (fusion bodies, reducers)
 * @param shape      output shape, or null when only the sequence names the instruction
 * @param opcode     e.g. {@code fusion}, or null when unknown
 * @param operands   operand instruction names, without {@code %}
 * @param attributes raw text after the operand list ({@code kind=kLoop, calls=...}), shared, may be empty
 */
public record HloInstruction(String name, int time, Shape shape, String opcode, List<String> operands,
                             String opName, String sourceFile, int sourceLine, String attributes) {
    public HloInstruction {
        operands = List.copyOf(operands);
    }

    /** Only the sequence named it; the dump printed no defining line. */
    public static HloInstruction sequenced(String name, int time) {
        return new HloInstruction(name, time, null, null, List.of(), null, null, -1, "");
    }

    public HloInstruction withTime(int t) {
        return new HloInstruction(name, t, shape, opcode, operands, opName, sourceFile, sourceLine, attributes);
    }
}
