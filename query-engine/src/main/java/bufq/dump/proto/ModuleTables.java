package bufq.dump.proto;

import bufq.dump.proto.Messages.Alias;
import bufq.dump.proto.Messages.StackIndex;
import bufq.dump.proto.Wire.LongBuilder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables of an {@code xla.HloModuleProto} beside its computations: the schedule, the
 * input/output aliases and the stack-frame index, one method per message as {@link HloProtoParser}
 * reads the rest; each reads the message {@code w} is in.
 */
final class ModuleTables {
    private ModuleTables() {}

    /** An HloScheduleProto: each computation's id to its instructions' ids in order. */
    static Map<Long, long[]> schedule(Wire w) throws ProtoException {
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

    /** An HloInputOutputAliasProto: which outputs alias which parameters. */
    static List<Alias> aliases(Wire w) throws ProtoException {
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

    /** A StackFrameIndexProto: the flat arrays the instructions' stack_frame_id points into. */
    static StackIndex stackIndex(Wire w) throws ProtoException {
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
}
