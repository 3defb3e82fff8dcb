package bufq.dump.proto;

import bufq.dump.proto.Shapes.ShapeP;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The parts of XLA's messages bufq reads (see {@code src/main/proto/bufq_xla_subset.proto}), as
 * plain records. Absent fields hold proto3 defaults: 0, "", empty arrays and lists, null messages.
 * A shape's messages are {@link Shapes}', which turns them into the model's shapes.
 */
final class Messages {
    private Messages() {}

    static final long[] NO_LONGS = new long[0];

    record Metadata(String opType, String opName, String sourceFile, int sourceLine, int stackFrameId) {
        static final Metadata NONE = new Metadata("", "", "", 0, 0);
    }

    /**
     * Where an instruction's {@code OpMetadata} is kept unread: {@code length} bytes at {@code at} in
     * its module's {@link HloModuleProto#metadata()}, which were at byte {@code offset} of the file.
     */
    record MetadataSpan(int at, int length, long offset) {}

    /** {@code metadata} is null when the instruction has none; it is read when first needed. */
    record Instruction(String name, String opcode, ShapeP shape, MetadataSpan metadata, long parameterNumber,
                       long tupleIndex, long id, long[] operandIds, long[] calledIds) {}

    /** A fusion body's instructions are not read ({@code instructions} is empty): bufq does not analyse them. */
    record Computation(String name, List<Instruction> instructions, long id, long rootId, boolean fusionBody) {}

    /** Flat arrays of StackFrameIndexProto; locations are {file, function, line, column}, frames {location, parent}, ids 1-based. */
    record StackIndex(List<String> files, List<String> functions, List<int[]> locations, List<int[]> frames) {
        static final StackIndex NONE = new StackIndex(List.of(), List.of(), List.of(), List.of());
    }

    record Alias(long[] outputIndex, long parameterNumber, long[] parameterIndex) {}

    /**
     * @param metadata the instructions' OpMetadata messages, copied out of the file one after the
     *                 other (an instruction's {@link MetadataSpan} says where its own is)
     * @param shapes   the shapes made while reading it, to share with those made later
     */
    record HloModuleProto(String name, String entryName, List<Computation> computations, long entryId,
                          Map<Long, long[]> schedule, List<Alias> aliases, StackIndex stacks, byte[] metadata,
                          Shapes shapes) {}

    /** {@code instructionName} is copied, as an event's names are ({@link Event#name} reads it). */
    record LogicalBuffer(long id, long size, long instructionId, long instructionName, long[] shapeIndex, long color) {}

    record Assigned(long bufferId, long offset, long size) {}

    record Allocation(long index, long size, boolean threadLocal, boolean entryParameter, long parameterNumber,
                      boolean maybeLiveOut, long color, List<Assigned> assigned, long[] parameterShapeIndex,
                      boolean tuple, boolean constant) {}

    /**
     * A heap-simulator event; its names are where they are in {@link Assignment#eventNames}
     * ({@code offset << 32 | length}, {@link #NO_NAME} when absent), read by {@link #name}.
     */
    record Event(int kind, long bufferId, long computation, long instruction, long shareWith) {
        static final long NO_NAME = -1;

        /** A name of this event (its {@code computation} or {@code instruction}) from the copied bytes. */
        static String name(byte[] eventNames, long at) {
            return at == NO_NAME ? "" : new String(eventNames, (int) (at >>> 32), (int) at, StandardCharsets.UTF_8);
        }
    }

    record Trace(List<Event> events, boolean wholeModule, long allocationIndex) {}

    record BufferAlias(long sourceId, long instructionId, long instructionName, long[] shapeIndex) {}

    /**
     * @param eventNames the bytes of the events' names and the logical buffers' instruction names,
     *                   copied out of the proto (see {@link Event#name})
     */
    record Assignment(List<LogicalBuffer> buffers, List<BufferAlias> aliases, List<Allocation> allocations,
                      List<Trace> traces, byte[] eventNames) {}

    /** An HloProto; either part may be null (a bare BufferAssignmentProto has no module). */
    record HloProto(HloModuleProto module, Assignment assignment) {}
}
