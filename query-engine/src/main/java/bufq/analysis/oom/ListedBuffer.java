package bufq.analysis.oom;

import bufq.units.PrintedSize;

/**
 * One buffer a message lists: a GPU {@code Buffer K:} of {@code Peak buffers}, an entry of TPU's
 * {@code Largest program allocations}, the value of a {@code #allocationK}, or a BFC chunk carrying
 * {@code xla.buffer{...}}. Fields the message does not print are null (or -1).
 *
 * @param line            1-based line where it starts in the paste
 * @param rank            its number in the list (1-based), or -1
 * @param size            its size as printed
 * @param shape           {@code Shape:} (or a GPU {@code Entry Parameter Subshape:}), as printed
 * @param parameter       the shape was an entry parameter's subshape
 * @param opName          {@code op_name} of {@code Operator:}
 * @param sourceFile      {@code source_file}
 * @param sourceLine      {@code source_line}, or -1
 * @param stackFrameId    {@code stack_frame_id}, or -1
 * @param label           {@code XLA label:} as printed (an instruction, or a GPU opcode alone)
 * @param instruction     the instruction's name where the label or tag names one
 * @param opcode          the opcode where the label gives one
 * @param allocationType  {@code Allocation type:} ({@code HLO temp}, {@code global}, ...)
 * @param unpadded        {@code Unpadded size:}
 * @param padding         {@code Extra memory due to padding:}
 * @param allocationIndex an allocation index the message names ({@code #allocationK}, {@code allocation_index=K}), or -1
 * @param executable      {@code xla.execute{executable=NAME}} of the chunk, or null
 * @param kind            {@code xla.buffer{kind=...}} of the chunk, or null
 */
public record ListedBuffer(int line, int rank, PrintedSize size, String shape, boolean parameter, String opName,
                           String sourceFile, int sourceLine, long stackFrameId, String label, String instruction,
                           String opcode, String allocationType, PrintedSize unpadded, PrintedSize padding,
                           int allocationIndex, String executable, String kind) {
    /** {@code file:line}, the file alone, {@code stack_frame_id=N}, or null. */
    public String source() {
        if (sourceFile != null) return sourceLine >= 0 ? sourceFile + ":" + sourceLine : sourceFile;
        return stackFrameId >= 0 ? "stack_frame_id=" + stackFrameId : null;
    }
}
