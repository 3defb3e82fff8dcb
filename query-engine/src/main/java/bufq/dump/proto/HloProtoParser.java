package bufq.dump.proto;

import bufq.dump.proto.Messages.Alias;
import bufq.dump.proto.Messages.Allocation;
import bufq.dump.proto.Messages.Assigned;
import bufq.dump.proto.Messages.Assignment;
import bufq.dump.proto.Messages.BufferAlias;
import bufq.dump.proto.Messages.Computation;
import bufq.dump.proto.Messages.Event;
import bufq.dump.proto.Messages.HloProto;
import bufq.dump.proto.Messages.Instruction;
import bufq.dump.proto.Messages.Layout;
import bufq.dump.proto.Messages.LogicalBuffer;
import bufq.dump.proto.Messages.Metadata;
import bufq.dump.proto.Messages.HloModuleProto;
import bufq.dump.proto.Messages.ShapeP;
import bufq.dump.proto.Messages.StackIndex;
import bufq.dump.proto.Messages.Trace;
import bufq.dump.proto.Wire.LongBuilder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinTask;

/**
 * Reads {@code xla.HloProto} and {@code xla.BufferAssignmentProto} into {@link Messages}: one method
 * per message, its fields by the numbers of {@link FieldNumbers}; fields it does not list are skipped.
 */
final class HloProtoParser {
    private final Wire w;
    /**
     * Bytes kept for reading later, copied out of the proto: the instructions' OpMetadata (shared
     * by one module's parsers), or the heap-simulator events' names (the assignment's parser).
     */
    private final Copied copied;
    /** The module's shapes, made as they are read (shared by one module's parsers). */
    private final Shapes shapes;

    private HloProtoParser(Wire w) {
        this(w, new Copied(), new Shapes());
    }

    private HloProtoParser(Wire w, Copied copied, Shapes shapes) {
        this.w = w;
        this.copied = copied;
        this.shapes = shapes;
    }

    /**
     * An {@code xla.HloProto} held in {@code bytes[from, from + length)}, {@code base} its offset in the
     * file. The buffer assignment is read on another core while this one reads the module (as the
     * text reader splits its files); an error of either is thrown, the module's first.
     */
    static HloProto hloProto(byte[] bytes, int from, int length, long base) throws ProtoException {
        Wire w = new Wire(bytes, from, length, base, "HloProto");
        HloProtoParser p = new HloProtoParser(w);
        HloModuleProto module = null;
        Assignment assignment = null;
        ForkJoinTask<Assignment> pending = null;
        try {
            for (int f; (f = w.next()) != 0; ) {
                switch (f) {
                    case FieldNumbers.HloProto.HLO_MODULE -> {
                        int l = w.enter("hlo_module", -1);
                        module = p.module();
                        w.leave(l);
                    }
                    case FieldNumbers.HloProto.BUFFER_ASSIGNMENT -> {
                        int l = w.enter("buffer_assignment", -1);
                        if (pending == null && assignment == null) {
                            int at = w.position(), n = w.bytesLeft();
                            long offset = w.offset();
                            pending = ForkJoinTask.adapt(() -> new HloProtoParser(
                                    new Wire(bytes, at, n, offset, "HloProto.buffer_assignment")).assignment()).fork();
                            w.skipRest();
                        } else {
                            assignment = p.assignment();   // a second one (proto merges them): read in order
                        }
                        w.leave(l);
                    }
                    default -> w.skip();
                }
            }
        } catch (ProtoException | RuntimeException e) {
            if (pending != null) pending.cancel(false);
            throw e;
        }
        if (pending != null) {
            Assignment first = join(pending);
            if (assignment == null) assignment = first;
        }
        return new HloProto(module, assignment);
    }

    /** The forked assignment, its {@link ProtoException} rethrown. */
    private static Assignment join(ForkJoinTask<Assignment> task) throws ProtoException {
        try {
            return task.tryUnfork() ? task.invoke() : task.join();
        } catch (RuntimeException e) {
            Throwable c = e;
            while (c != null && !(c instanceof ProtoException)) c = c.getCause();
            if (c instanceof ProtoException pe) throw pe;
            throw e;
        }
    }

    /** A bare {@code xla.BufferAssignmentProto} (what {@code memory_analysis()} serializes). */
    static Assignment bufferAssignment(byte[] bytes, int from, int length, long base) throws ProtoException {
        Wire w = new Wire(bytes, from, length, base, "BufferAssignmentProto");
        return new HloProtoParser(w).assignment();
    }

    // ---- xla_data.proto ----

    private static final boolean[] NO_BOOLEANS = new boolean[0];

    private ShapeP shape() throws ProtoException {
        int type = 0;
        // Builders reused by nesting depth: a tuple's elements are read inside it.
        if (shapeDepth == dimsAt.length) dimsAt = Arrays.copyOf(dimsAt, shapeDepth * 2);
        if (dimsAt[shapeDepth] == null) dimsAt[shapeDepth] = new LongBuilder();
        LongBuilder dims = dimsAt[shapeDepth++];
        dims.clear();
        boolean[] dynamic = NO_BOOLEANS;
        List<ShapeP> tuple = List.of();
        Layout layout = null;
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.ShapeProto.ELEMENT_TYPE -> type = w.int32("element_type");
                case FieldNumbers.ShapeProto.DIMENSIONS -> w.int64s("dimensions", dims);
                case FieldNumbers.ShapeProto.IS_DYNAMIC_DIMENSION -> {
                    scratch.clear();
                    w.int64s("is_dynamic_dimension", scratch);
                    int old = dynamic.length;
                    dynamic = Arrays.copyOf(dynamic, old + scratch.size());
                    for (int i = 0; i < scratch.size(); i++) dynamic[old + i] = scratch.get(i) != 0;
                }
                case FieldNumbers.ShapeProto.TUPLE_SHAPES -> {
                    if (tuple.isEmpty()) tuple = new ArrayList<>();
                    int l = w.enter("tuple_shapes", tuple.size());
                    tuple.add(shape());
                    w.leave(l);
                }
                case FieldNumbers.ShapeProto.LAYOUT -> {
                    int l = w.enter("layout", -1);
                    layout = layout();
                    w.leave(l);
                }
                default -> w.skip();
            }
        }
        shapeDepth--;
        // Elements past 2^56 (a few hundred dimensions of 2) overflow a long in the sizes made of them.
        long elements = 1;
        for (int k = 0; k < dims.size(); k++) {
            long d = dims.get(k);
            if (d <= 0) continue;
            if (elements > Wire.MAX_BYTES / d) throw w.error("dimensions multiply to more than 2^56 elements; not a real shape");
            elements *= d;
        }
        ShapeP read = new ShapeP(type, dims.build(), dynamic, tuple, layout, null);
        return new ShapeP(type, read.dims(), dynamic, tuple, layout, shapes.printed(read));
    }

    /** Spans of the proto noted as it is read, copied into one array of exactly their size at the end. */
    private static final class Copied {
        private final LongBuilder spans = new LongBuilder();   // start << 32 | length
        private int size;

        /** Notes {@code length} bytes at {@code start}; returns where they will be in {@link #bytes}. */
        int add(int start, int length) {
            spans.add((long) start << 32 | length);
            int at = size;
            size = Math.addExact(size, length);
            return at;
        }

        byte[] bytes(byte[] source) {
            byte[] out = new byte[size];
            int at = 0;
            for (int i = 0; i < spans.size(); i++) {
                long sp = spans.get(i);
                int n = (int) sp;
                System.arraycopy(source, (int) (sp >>> 32), out, at, n);
                at += n;
            }
            return out;
        }
    }

    /** A builder for repeated fields read and copied out at once (no nesting inside them). */
    private final LongBuilder scratch = new LongBuilder();
    private final LongBuilder operandScratch = new LongBuilder(), calledScratch = new LongBuilder();
    private LongBuilder[] dimsAt = new LongBuilder[4];
    private int shapeDepth;

    private Layout layout() throws ProtoException {
        scratch.clear();
        List<long[]> tiles = List.of();
        long bits = 0, space = 0;
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.LayoutProto.MINOR_TO_MAJOR -> w.int64s("minor_to_major", scratch);
                case FieldNumbers.LayoutProto.TILES -> {
                    if (tiles.isEmpty()) tiles = new ArrayList<>(1);
                    int l = w.enter("tiles", tiles.size());
                    LongBuilder d = new LongBuilder();
                    for (int g; (g = w.next()) != 0; ) {
                        if (g == FieldNumbers.TileProto.DIMENSIONS) w.int64s("dimensions", d);
                        else w.skip();
                    }
                    tiles.add(d.build());
                    w.leave(l);
                }
                case FieldNumbers.LayoutProto.ELEMENT_SIZE_IN_BITS -> bits = w.int64("element_size_in_bits");
                case FieldNumbers.LayoutProto.MEMORY_SPACE -> space = w.int64("memory_space");
                default -> w.skip();
            }
        }
        return new Layout(scratch.build(), tiles, bits, space);
    }

    /**
     * The OpMetadata at {@code metadata}'s span of {@code bytes} (a module's copied metadata), read
     * when first needed; errors name the file's byte offset and {@code path}.
     */
    static Metadata metadata(byte[] bytes, Messages.MetadataSpan span, String path) throws ProtoException {
        return new HloProtoParser(new Wire(bytes, span.at(), span.length(), span.offset(), path)).metadata();
    }

    private Metadata metadata() throws ProtoException {
        String type = "", name = "", file = "";
        int line = 0, frame = 0;
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.OpMetadata.OP_TYPE -> type = w.repeatedString("op_type");
                case FieldNumbers.OpMetadata.OP_NAME -> name = w.string("op_name");
                case FieldNumbers.OpMetadata.SOURCE_FILE -> file = w.repeatedString("source_file");
                case FieldNumbers.OpMetadata.SOURCE_LINE -> line = w.int32("source_line");
                case FieldNumbers.OpMetadata.STACK_FRAME_ID -> frame = w.int32("stack_frame_id");
                default -> w.skip();
            }
        }
        return new Metadata(type, name, file, line, frame);
    }

    // ---- hlo.proto: the module ----

    /** An instruction, every field bufq reads. */
    private Instruction instruction() throws ProtoException {
        String name = "", opcode = "";
        ShapeP shape = null;
        Messages.MetadataSpan md = null;
        long param = 0, tupleIndex = 0, id = 0;
        LongBuilder operands = operandScratch, called = calledScratch;
        operands.clear();
        called.clear();
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.HloInstructionProto.NAME -> name = w.string("name");
                case FieldNumbers.HloInstructionProto.OPCODE -> opcode = w.repeatedString("opcode");
                case FieldNumbers.HloInstructionProto.SHAPE -> {
                    int l = w.enter("shape", -1);
                    shape = shape();
                    w.leave(l);
                }
                case FieldNumbers.HloInstructionProto.METADATA -> {
                    // Copied, not read: only the instructions' list (made on first use) shows it.
                    int[] span = w.bytesSpan("metadata");
                    md = new Messages.MetadataSpan(copied.add(span[0], span[1]), span[1], w.offset() - span[1]);
                }
                case FieldNumbers.HloInstructionProto.PARAMETER_NUMBER -> param = w.int64("parameter_number");
                case FieldNumbers.HloInstructionProto.TUPLE_INDEX -> tupleIndex = w.int64("tuple_index");
                case FieldNumbers.HloInstructionProto.ID -> id = w.int64("id");
                case FieldNumbers.HloInstructionProto.OPERAND_IDS -> w.int64sUnbounded("operand_ids", operands);
                case FieldNumbers.HloInstructionProto.CALLED_COMPUTATION_IDS -> w.int64sUnbounded("called_computation_ids", called);
                default -> w.skip();
            }
        }
        return new Instruction(name, opcode, shape, md, param, tupleIndex, id, operands.build(), called.build());
    }

    private static final byte[] FUSION = "fusion".getBytes(StandardCharsets.US_ASCII);

    /**
     * The first pass over an instruction: reads up to its opcode (the second field as XLA writes
     * them) and, for a fusion only, the rest, adding the computations it calls to {@code fusionBodies}.
     */
    private void skim(LongBuilder fusionBodies) throws ProtoException {
        for (int f; (f = w.next()) != 0; ) {
            if (f != FieldNumbers.HloInstructionProto.OPCODE) {
                w.skip();
                continue;
            }
            if (!w.bytesEqual("opcode", FUSION)) {
                w.skipRest();
                return;
            }
            for (int g; (g = w.next()) != 0; ) {
                if (g == FieldNumbers.HloInstructionProto.CALLED_COMPUTATION_IDS) w.int64sUnbounded("called_computation_ids", fusionBodies);
                else w.skip();
            }
            return;
        }
    }

    /**
     * The first pass over a computation: its id, root, whether XLA marks it a fusion body, and where
     * its bytes are ({@code span}: start, length) for the second pass over those that are not fusion
     * bodies. Its instructions are skipped, unless {@code fusionBodies} is given: then they are
     * skimmed ({@link #skim}) for the computations fusions call, which a proto without the marks needs.
     */
    private Computation computation(int[] span, LongBuilder fusionBodies) throws ProtoException {
        span[0] = w.position();
        span[1] = w.bytesLeft();
        int[] name = null;
        long id = 0, root = 0;
        boolean fusion = false;
        int n = 0;
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.HloComputationProto.NAME -> name = w.bytesSpan("name");
                case FieldNumbers.HloComputationProto.INSTRUCTIONS -> {
                    if (fusionBodies == null) {
                        w.skip();
                        n++;
                        continue;
                    }
                    int l = w.enter("instructions", n++);
                    skim(fusionBodies);
                    w.leave(l);
                }
                case FieldNumbers.HloComputationProto.ID -> id = w.int64("id");
                case FieldNumbers.HloComputationProto.ROOT_ID -> root = w.int64("root_id");
                case FieldNumbers.HloComputationProto.IS_FUSION_COMPUTATION -> fusion = w.bool("is_fusion_computation");
                default -> w.skip();
            }
        }
        // A fusion body's name is never shown: it stays undecoded.
        return new Computation(fusion || name == null ? "" : w.utf8(name, "name"), List.of(), id, root, fusion);
    }

    /** The second pass over a computation: its instructions in full. */
    private List<Instruction> instructions() throws ProtoException {
        List<Instruction> out = new ArrayList<>();
        for (int f; (f = w.next()) != 0; ) {
            if (f != FieldNumbers.HloComputationProto.INSTRUCTIONS) {
                w.skip();
                continue;
            }
            int l = w.enter("instructions", out.size());
            out.add(instruction());
            w.leave(l);
        }
        return out;
    }

    private Map<Long, long[]> schedule() throws ProtoException {
        Map<Long, long[]> out = new HashMap<>();
        int n = 0;
        for (int f; (f = w.next()) != 0; ) {
            if (f != FieldNumbers.HloScheduleProto.SEQUENCES) {
                w.skip();
                continue;
            }
            int l = w.enter("sequences", n++);
            long key = 0;
            long[] ids = Messages.NO_LONGS;
            for (int g; (g = w.next()) != 0; ) {
                switch (g) {
                    case FieldNumbers.MapEntry.KEY -> key = w.int64("key");
                    case FieldNumbers.MapEntry.VALUE -> {
                        int l2 = w.enter("value", -1);
                        LongBuilder b = new LongBuilder();
                        for (int h; (h = w.next()) != 0; ) {
                            if (h == FieldNumbers.HloScheduleProto_InstructionSequence.INSTRUCTION_IDS) w.int64sUnbounded("instruction_ids", b);
                            else w.skip();
                        }
                        ids = b.build();
                        w.leave(l2);
                    }
                    default -> w.skip();
                }
            }
            out.put(key, ids);
            w.leave(l);
        }
        return out;
    }

    private List<Alias> aliases() throws ProtoException {
        List<Alias> out = new ArrayList<>();
        for (int f; (f = w.next()) != 0; ) {
            if (f != FieldNumbers.HloInputOutputAliasProto.ENTRIES) {
                w.skip();
                continue;
            }
            int l = w.enter("entries", out.size());
            LongBuilder output = new LongBuilder(), paramIndex = new LongBuilder();
            long param = 0;
            for (int g; (g = w.next()) != 0; ) {
                switch (g) {
                    case FieldNumbers.HloInputOutputAliasProto_AliasEntryProto.OUTPUT_SHAPE_INDEX -> w.int64s("output_shape_index", output);
                    case FieldNumbers.HloInputOutputAliasProto_AliasEntryProto.PARAMETER_NUMBER -> param = w.int64("parameter_number");
                    case FieldNumbers.HloInputOutputAliasProto_AliasEntryProto.PARAMETER_SHAPE_INDEX -> w.int64s("parameter_shape_index", paramIndex);
                    default -> w.skip();
                }
            }
            out.add(new Alias(output.build(), param, paramIndex.build()));
            w.leave(l);
        }
        return out;
    }

    private StackIndex stackIndex() throws ProtoException {
        List<String> files = new ArrayList<>(), functions = new ArrayList<>();
        List<int[]> locations = new ArrayList<>(), frames = new ArrayList<>();
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.StackFrameIndexProto.FILE_NAMES -> files.add(w.string("file_names"));
                case FieldNumbers.StackFrameIndexProto.FUNCTION_NAMES -> functions.add(w.string("function_names"));
                case FieldNumbers.StackFrameIndexProto.FILE_LOCATIONS -> {
                    int l = w.enter("file_locations", locations.size());
                    int[] loc = new int[4];
                    for (int g; (g = w.next()) != 0; ) {
                        switch (g) {
                            case FieldNumbers.StackFrameIndexProto_FileLocation.FILE_NAME_ID -> loc[0] = w.int32("file_name_id");
                            case FieldNumbers.StackFrameIndexProto_FileLocation.FUNCTION_NAME_ID -> loc[1] = w.int32("function_name_id");
                            case FieldNumbers.StackFrameIndexProto_FileLocation.LINE -> loc[2] = w.int32("line");
                            case FieldNumbers.StackFrameIndexProto_FileLocation.COLUMN -> loc[3] = w.int32("column");
                            default -> w.skip();
                        }
                    }
                    locations.add(loc);
                    w.leave(l);
                }
                case FieldNumbers.StackFrameIndexProto.STACK_FRAMES -> {
                    int l = w.enter("stack_frames", frames.size());
                    int[] fr = new int[2];
                    for (int g; (g = w.next()) != 0; ) {
                        switch (g) {
                            case FieldNumbers.StackFrameIndexProto_StackFrame.FILE_LOCATION_ID -> fr[0] = w.int32("file_location_id");
                            case FieldNumbers.StackFrameIndexProto_StackFrame.PARENT_FRAME_ID -> fr[1] = w.int32("parent_frame_id");
                            default -> w.skip();
                        }
                    }
                    frames.add(fr);
                    w.leave(l);
                }
                default -> w.skip();
            }
        }
        return new StackIndex(files, functions, locations, frames);
    }

    private HloModuleProto module() throws ProtoException {
        String name = "", entryName = "";
        List<Computation> computations = new ArrayList<>();
        long entryId = 0;
        Map<Long, long[]> schedule = Map.of();
        List<Alias> aliases = List.of();
        StackIndex stacks = StackIndex.NONE;
        List<int[]> spans = new ArrayList<>();
        LongBuilder fusionBodies = new LongBuilder();
        for (int f; (f = w.next()) != 0; ) {
            switch (f) {
                case FieldNumbers.HloModuleProto.NAME -> name = w.string("name");
                case FieldNumbers.HloModuleProto.ENTRY_COMPUTATION_NAME -> entryName = w.string("entry_computation_name");
                case FieldNumbers.HloModuleProto.COMPUTATIONS -> {
                    int l = w.enter("computations", computations.size());
                    int[] span = new int[2];
                    spans.add(span);
                    computations.add(computation(span, null));
                    w.leave(l);
                }
                case FieldNumbers.HloModuleProto.ENTRY_COMPUTATION_ID -> entryId = w.int64("entry_computation_id");
                case FieldNumbers.HloModuleProto.SCHEDULE -> {
                    int l = w.enter("schedule", -1);
                    schedule = schedule();
                    w.leave(l);
                }
                case FieldNumbers.HloModuleProto.INPUT_OUTPUT_ALIAS -> {
                    int l = w.enter("input_output_alias", -1);
                    aliases = aliases();
                    w.leave(l);
                }
                case FieldNumbers.HloModuleProto.STACK_FRAME_INDEX -> {
                    int l = w.enter("stack_frame_index", -1);
                    stacks = stackIndex();
                    w.leave(l);
                }
                default -> w.skip();
            }
        }
        boolean marked = false;
        for (Computation c : computations) marked |= c.fusionBody();
        if (!marked && !computations.isEmpty()) {
            // No computation is marked (a proto from before XLA wrote is_fusion_computation): the
            // fusion bodies are what fusion instructions call, found by skimming every instruction.
            List<Computation> again = new ArrayList<>(computations.size());
            for (int c = 0; c < computations.size(); c++) {
                int[] span = spans.get(c);
                again.add(new HloProtoParser(new Wire(w, span[0], span[1], w.path() + ".computations[" + c + "]"), copied, shapes)
                        .computation(new int[2], fusionBodies));
            }
            computations = again;
        }
        computations = completeInstructions(computations, spans, fusionBodies.build());
        return new HloModuleProto(name, entryName, computations, entryId, schedule, aliases, stacks, copied.bytes(w.array()),
                shapes);
    }

    /**
     * Reads the instructions outside fusion bodies in full; a fusion body keeps none. Most of a
     * module's instructions are inside fusions, which bufq does not analyse (their values are not
     * buffers) and text dumps do not list; their names, shapes and metadata are the bulk of the proto.
     */
    private List<Computation> completeInstructions(List<Computation> computations, List<int[]> spans, long[] fusionCallees)
            throws ProtoException {
        Set<Long> fusionBodies = new HashSet<>();
        for (long id : fusionCallees) fusionBodies.add(id);
        String prefix = w.path();
        List<Computation> out = new ArrayList<>(computations.size());
        for (int c = 0; c < computations.size(); c++) {
            Computation comp = computations.get(c);
            boolean fusionBody = comp.fusionBody() || fusionBodies.contains(comp.id());
            List<Instruction> list = List.of();
            if (!fusionBody) {
                int[] span = spans.get(c);
                list = new HloProtoParser(new Wire(w, span[0], span[1], prefix + ".computations[" + c + "]"), copied, shapes)
                        .instructions();
            }
            out.add(new Computation(comp.name(), list, comp.id(), comp.rootId(), fusionBody));
        }
        // A computation a fusion calls that XLA did not mark is a fusion body all the same.
        Set<Long> called = new HashSet<>();
        for (Computation c : out) {
            for (Instruction i : c.instructions()) if (i.opcode().equals("fusion")) for (long id : i.calledIds()) called.add(id);
        }
        for (int c = 0; c < out.size(); c++) {
            Computation comp = out.get(c);
            if (!comp.fusionBody() && called.contains(comp.id())) {
                out.set(c, new Computation(comp.name(), List.of(), comp.id(), comp.rootId(), true));
            }
        }
        return out;
    }

    // ---- hlo.proto: the buffer assignment ----

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

    private Assignment assignment() throws ProtoException {
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
