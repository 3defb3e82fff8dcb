package bufq.dump.proto;

import bufq.dump.proto.Messages.Alias;
import bufq.dump.proto.Messages.Assignment;
import bufq.dump.proto.Messages.Computation;
import bufq.dump.proto.Messages.HloModuleProto;
import bufq.dump.proto.Messages.HloProto;
import bufq.dump.proto.Messages.Instruction;
import bufq.dump.proto.Messages.Metadata;
import bufq.dump.proto.Messages.StackIndex;
import bufq.dump.proto.Shapes.Layout;
import bufq.dump.proto.Shapes.ShapeP;
import bufq.dump.proto.Wire.LongBuilder;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinTask;

/**
 * Reads an {@code xla.HloProto} into {@link Messages}: the module here, one method per message, its
 * fields by the numbers of {@link FieldNumbers} (fields it does not list are skipped); the buffer
 * assignment with {@link BufferAssignmentParser}, on another core.
 */
final class HloProtoParser {
    private final Wire w;
    /** The instructions' OpMetadata, copied out of the proto to read later (shared by one module's parsers). */
    private final CopiedBytes copied;
    /** The module's shapes, made as they are read (shared by one module's parsers). */
    private final Shapes shapes;

    private HloProtoParser(Wire w) {
        this(w, new CopiedBytes(), new Shapes());
    }

    private HloProtoParser(Wire w, CopiedBytes copied, Shapes shapes) {
        this.w = w;
        this.copied = copied;
        this.shapes = shapes;
    }

    /**
     * An {@code xla.HloProto} held in {@code bytes[from, from + length)}, {@code base} its offset in the
     * file. A large buffer assignment is read on another core while this one reads the module (as the
     * text reader splits its files); an error of either is thrown, the module's first.
     */
    static HloProto hloProto(byte[] bytes, int from, int length, long base) throws ProtoException {
        Wire w = new Wire(bytes, from, length, base, "HloProto");
        HloProtoParser p = new HloProtoParser(w);
        HloModuleProto module = null;
        Assignment assignment = null;
        Forked forked = forkLargeAssignment(bytes, from, length, base);
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
                        if (forked != null && w.position() == forked.at()) w.skipRest();   // read on another core
                        else assignment = new BufferAssignmentParser(w).assignment();    // a later one replaces it
                        w.leave(l);
                    }
                    default -> w.skip();
                }
            }
        } catch (ProtoException | RuntimeException e) {
            if (forked != null) forked.task().cancel(false);
            throw e;
        }
        if (forked != null) {
            Assignment first = join(forked.task());
            if (assignment == null) assignment = first;
        }
        return new HloProto(module, assignment);
    }

    /**
     * From this many bytes a buffer assignment is read on another core. A smaller one is read in
     * order: handing it over (a pool thread woken, its caches cold) cost more CPU than it saved in
     * time (the 12-layer transformer's 67 KB: 4.04 CPU-ms a load forked, 3.92 not).
     */
    static final int FORK_AT = 1 << 20;

    /** An assignment being read on another core, whose bytes start at {@code at}. */
    private record Forked(ForkJoinTask<Assignment> task, int at) {}

    /**
     * The first buffer assignment, forked when it is large. XLA writes it after the module, so it is
     * found by skipping the module's bytes whole (one length each); a proto this cannot walk is left
     * to the reading in order, which says where it is broken.
     */
    private static Forked forkLargeAssignment(byte[] bytes, int from, int length, long base) {
        Wire scan = new Wire(bytes, from, length, base, "HloProto");
        try {
            for (int f; (f = scan.next()) != 0; ) {
                if (f != FieldNumbers.HloProto.BUFFER_ASSIGNMENT) {
                    scan.skip();
                    continue;
                }
                scan.enter("buffer_assignment", -1);
                int at = scan.position(), n = scan.bytesLeft();
                if (n < FORK_AT) return null;
                long offset = scan.offset();
                return new Forked(ForkJoinTask.adapt(() -> new BufferAssignmentParser(
                        new Wire(bytes, at, n, offset, "HloProto.buffer_assignment")).assignment()).fork(), at);
            }
        } catch (ProtoException e) {
            return null;
        }
        return null;
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
                    int at = w.position(), n = w.bytesLeft();
                    shape = shapes.readBefore(w.array(), at, n);   // the same bytes read the same
                    if (shape == null) {
                        shape = shape();
                        shapes.wasRead(w.array(), at, n, shape);
                    } else {
                        w.skipRest();
                    }
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
                    schedule = ModuleTables.schedule(w);
                    w.leave(l);
                }
                case FieldNumbers.HloModuleProto.INPUT_OUTPUT_ALIAS -> {
                    int l = w.enter("input_output_alias", -1);
                    aliases = ModuleTables.aliases(w);
                    w.leave(l);
                }
                case FieldNumbers.HloModuleProto.STACK_FRAME_INDEX -> {
                    int l = w.enter("stack_frame_index", -1);
                    stacks = ModuleTables.stackIndex(w);
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
}
