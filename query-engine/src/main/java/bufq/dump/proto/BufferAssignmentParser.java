package bufq.dump.proto;

import bufq.dump.proto.Messages.Allocation;
import bufq.dump.proto.Messages.Assigned;
import bufq.dump.proto.Messages.Assignment;
import bufq.dump.proto.Messages.BufferAlias;
import bufq.dump.proto.Messages.Event;
import bufq.dump.proto.Messages.LogicalBuffer;
import bufq.dump.proto.Messages.Trace;
import bufq.dump.proto.Wire.LongBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads an {@code xla.BufferAssignmentProto} (an HloProto's {@code buffer_assignment}, or the bare
 * one {@code memory_analysis()} serializes) into {@link Messages}: one method per message, its fields
 * by the numbers of {@link FieldNumbers}; fields it does not list are skipped. The event and buffer
 * names are copied, not decoded ({@link Event#name} reads them).
 */
final class BufferAssignmentParser {
    private final Wire w;
    /** The events' and logical buffers' names, copied out of the proto. */
    private final CopiedBytes copied = new CopiedBytes();
    /** A builder for repeated fields read and copied out at once (no nesting inside them). */
    private final LongBuilder scratch = new LongBuilder();

    BufferAssignmentParser(Wire w) {
        this.w = w;
    }

    /** A bare {@code xla.BufferAssignmentProto} (what {@code memory_analysis()} serializes). */
    static Assignment bufferAssignment(byte[] bytes, int from, int length, long base) throws ProtoException {
        Wire w = new Wire(bytes, from, length, base, "BufferAssignmentProto");
        return new BufferAssignmentParser(w).assignment();
    }

    /** A LogicalBufferProto.Location: {instruction id, shape index, name (copied: see {@link Messages.Event#name})}. */
    private record Location(long instructionId, long[] index, long name) {}

    private Location location() throws ProtoException {
        long id = 0;
        long name = Event.NO_NAME;
        LongBuilder index = scratch;
        index.clear();
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.LogicalBufferProto_Location.INSTRUCTION_ID -> id = w.int64("instruction_id");
                case FieldNumbers.LogicalBufferProto_Location.INSTRUCTION_NAME -> name = copyName("instruction_name");
                case FieldNumbers.LogicalBufferProto_Location.SHAPE_INDEX -> w.int64s("shape_index", index);
                default -> w.skip();
            }
        }
        return new Location(id, index.build(), name);
    }

    /** Running sums of an assignment's sizes, each bounded ({@link Wire#total}) so no later sum overflows. */
    private long bufferBytes, allocationBytes, assignedBytes;

    private LogicalBuffer logicalBuffer() throws ProtoException {
        long id = 0, size = 0, color = 0;
        Location at = new Location(0, Messages.NO_LONGS, Event.NO_NAME);
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.LogicalBufferProto.ID -> id = w.int64("id");
                case FieldNumbers.LogicalBufferProto.SIZE -> {
                    size = w.bytes("size");
                    bufferBytes = w.total(bufferBytes, size, "the logical buffers' sizes");
                }
                case FieldNumbers.LogicalBufferProto.COLOR -> color = w.int64("color");
                case FieldNumbers.LogicalBufferProto.DEFINED_AT -> {
                    int l = w.enter("defined_at", -1);
                    at = location();
                    w.leave(l);
                }
                default -> w.skip();
            }
        }
        return new LogicalBuffer(id, size, at.instructionId(), at.name(), at.index(), color);
    }

    private Allocation allocation() throws ProtoException {
        long index = 0, size = 0, param = 0, color = 0;
        boolean threadLocal = false, entryParam = false, liveOut = false, tuple = false, constant = false;
        List<Assigned> assigned = new ArrayList<>();
        LongBuilder paramIndex = new LongBuilder();
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.BufferAllocationProto.INDEX -> index = w.int64("index");
                case FieldNumbers.BufferAllocationProto.SIZE -> {
                    size = w.bytes("size");
                    allocationBytes = w.total(allocationBytes, size, "the allocations' sizes");
                }
                case FieldNumbers.BufferAllocationProto.IS_THREAD_LOCAL -> threadLocal = w.bool("is_thread_local");
                case FieldNumbers.BufferAllocationProto.IS_ENTRY_COMPUTATION_PARAMETER -> entryParam = w.bool("is_entry_computation_parameter");
                case FieldNumbers.BufferAllocationProto.PARAMETER_NUMBER -> param = w.int64("parameter_number");
                case FieldNumbers.BufferAllocationProto.MAYBE_LIVE_OUT -> liveOut = w.bool("maybe_live_out");
                case FieldNumbers.BufferAllocationProto.COLOR -> color = w.int64("color");
                case FieldNumbers.BufferAllocationProto.PARAMETER_SHAPE_INDEX -> w.int64s("parameter_shape_index", paramIndex);
                case FieldNumbers.BufferAllocationProto.IS_TUPLE -> tuple = w.bool("is_tuple");
                case FieldNumbers.BufferAllocationProto.IS_CONSTANT -> constant = w.bool("is_constant");
                case FieldNumbers.BufferAllocationProto.ASSIGNED -> {
                    int l = w.enter("assigned", assigned.size());
                    long id = 0, offset = 0, s = 0;
                    for (int g; (g = w.next()) != 0; ) {
                        switch (g) {
                            case FieldNumbers.BufferAllocationProto_Assigned.LOGICAL_BUFFER_ID -> id = w.int64("logical_buffer_id");
                            case FieldNumbers.BufferAllocationProto_Assigned.OFFSET -> offset = w.bytes("offset");
                            case FieldNumbers.BufferAllocationProto_Assigned.SIZE -> {
                                s = w.bytes("size");
                                assignedBytes = w.total(assignedBytes, s, "the assigned values' sizes");
                            }
                            default -> w.skip();
                        }
                    }
                    assigned.add(new Assigned(id, offset, s));
                    w.leave(l);
                }
                default -> w.skip();
            }
        }
        return new Allocation(index, size, threadLocal, entryParam, param, liveOut, color, assigned, paramIndex.build(),
                tuple, constant);
    }

    /** A string field noted for copying: {@link Event#name} reads it from the assignment's copied names. */
    private long copyName(String field) throws ProtoException {
        int[] span = w.bytesSpan(field);
        return (long) copied.add(span[0], span[1]) << 32 | span[1];
    }

    private Trace trace() throws ProtoException {
        List<Event> events = new ArrayList<>();
        boolean whole = false;
        long allocation = 0;
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.HeapSimulatorTrace.EVENTS -> {
                    int l = w.enter("events", events.size());
                    int kind = 0;
                    long buffer = 0, share = 0;
                    // The names are copied, not decoded: the events are made when first asked for.
                    long computation = Event.NO_NAME, instruction = Event.NO_NAME;
                    for (int g; (g = w.next()) != 0; ) {
                        switch (g) {
                            case FieldNumbers.HeapSimulatorTrace_Event.KIND -> kind = w.int32("kind");
                            case FieldNumbers.HeapSimulatorTrace_Event.BUFFER_ID -> buffer = w.int64("buffer_id");
                            case FieldNumbers.HeapSimulatorTrace_Event.COMPUTATION_NAME -> computation = copyName("computation_name");
                            case FieldNumbers.HeapSimulatorTrace_Event.INSTRUCTION_NAME -> instruction = copyName("instruction_name");
                            case FieldNumbers.HeapSimulatorTrace_Event.SHARE_WITH_CANONICAL_ID -> share = w.int64("share_with_canonical_id");
                            default -> w.skip();
                        }
                    }
                    if (kind < 0 || kind > 2) throw w.error("event kind " + kind + ", expected 0 (ALLOC), 1 (FREE) or 2 (SHARE_WITH)");
                    events.add(new Event(kind, buffer, computation, instruction, share));
                    w.leave(l);
                }
                case FieldNumbers.HeapSimulatorTrace.WHOLE_MODULE_SIMULATION -> whole = w.bool("whole_module_simulation");
                case FieldNumbers.HeapSimulatorTrace.BUFFER_ALLOCATION_INDEX -> allocation = w.int64("buffer_allocation_index");
                default -> w.skip();
            }
        }
        return new Trace(events, whole, allocation);
    }

    Assignment assignment() throws ProtoException {
        List<LogicalBuffer> buffers = new ArrayList<>();
        List<BufferAlias> aliases = new ArrayList<>();
        List<Allocation> allocations = new ArrayList<>();
        List<Trace> traces = new ArrayList<>();
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.BufferAssignmentProto.LOGICAL_BUFFERS -> {
                    int l = w.enter("logical_buffers", buffers.size());
                    buffers.add(logicalBuffer());
                    w.leave(l);
                }
                case FieldNumbers.BufferAssignmentProto.BUFFER_ALIASES -> {
                    int l = w.enter("buffer_aliases", aliases.size());
                    long source = 0;
                    Location at = new Location(0, Messages.NO_LONGS, Event.NO_NAME);
                    for (int g; (g = w.next()) != 0; ) {
                        switch (g) {
                            case FieldNumbers.BufferAssignmentProto_BufferAlias.SOURCE_BUFFER_ID -> source = w.int64("source_buffer_id");
                            case FieldNumbers.BufferAssignmentProto_BufferAlias.LOCATION -> {
                                int l2 = w.enter("location", -1);
                                at = location();
                                w.leave(l2);
                            }
                            default -> w.skip();
                        }
                    }
                    aliases.add(new BufferAlias(source, at.instructionId(), at.name(), at.index()));
                    w.leave(l);
                }
                case FieldNumbers.BufferAssignmentProto.BUFFER_ALLOCATIONS -> {
                    int l = w.enter("buffer_allocations", allocations.size());
                    allocations.add(allocation());
                    w.leave(l);
                }
                case FieldNumbers.BufferAssignmentProto.HEAP_SIMULATOR_TRACES -> {
                    int l = w.enter("heap_simulator_traces", traces.size());
                    traces.add(trace());
                    w.leave(l);
                }
                default -> w.skip();
            }
        }
        return new Assignment(buffers, aliases, allocations, traces, copied.bytes(w.array()));
    }
}
