package bufq.dump.proto;

/**
 * Field numbers of the messages bufq reads, one class per message (nested messages as
 * {@code Outer_Inner}), named and numbered as in {@code src/main/proto/bufq_xla_subset.proto};
 * {@code FieldNumbersTest} (reading that file's text) holds the two to each other.
 */
final class FieldNumbers {
    private FieldNumbers() {}

    /** LayoutProto */
    static final class LayoutProto {
        private LayoutProto() {}
        static final int MINOR_TO_MAJOR = 1;
        static final int TILES = 6;
        static final int ELEMENT_SIZE_IN_BITS = 7;
        static final int MEMORY_SPACE = 8;
    }

    /** TileProto */
    static final class TileProto {
        private TileProto() {}
        static final int DIMENSIONS = 1;
    }

    /** ShapeProto */
    static final class ShapeProto {
        private ShapeProto() {}
        static final int ELEMENT_TYPE = 2;
        static final int DIMENSIONS = 3;
        static final int TUPLE_SHAPES = 4;
        static final int LAYOUT = 5;
        static final int IS_DYNAMIC_DIMENSION = 6;
    }

    /** OpMetadata */
    static final class OpMetadata {
        private OpMetadata() {}
        static final int OP_TYPE = 1;
        static final int OP_NAME = 2;
        static final int SOURCE_FILE = 3;
        static final int SOURCE_LINE = 4;
        static final int STACK_FRAME_ID = 15;
    }

    /** HloInstructionProto */
    static final class HloInstructionProto {
        private HloInstructionProto() {}
        static final int NAME = 1;
        static final int OPCODE = 2;
        static final int SHAPE = 3;
        static final int METADATA = 7;
        static final int PARAMETER_NUMBER = 9;
        static final int TUPLE_INDEX = 13;
        static final int ID = 35;
        static final int OPERAND_IDS = 36;
        static final int CALLED_COMPUTATION_IDS = 38;
    }

    /** HloComputationProto */
    static final class HloComputationProto {
        private HloComputationProto() {}
        static final int NAME = 1;
        static final int INSTRUCTIONS = 2;
        static final int ID = 5;
        static final int ROOT_ID = 6;
        static final int IS_FUSION_COMPUTATION = 7;
    }

    /** HloScheduleProto */
    static final class HloScheduleProto {
        private HloScheduleProto() {}
        static final int SEQUENCES = 1;
    }

    /** HloScheduleProto.InstructionSequence */
    static final class HloScheduleProto_InstructionSequence {
        private HloScheduleProto_InstructionSequence() {}
        static final int INSTRUCTION_IDS = 1;
    }

    /** HloInputOutputAliasProto */
    static final class HloInputOutputAliasProto {
        private HloInputOutputAliasProto() {}
        static final int ENTRIES = 1;
    }

    /** HloInputOutputAliasProto.AliasEntryProto */
    static final class HloInputOutputAliasProto_AliasEntryProto {
        private HloInputOutputAliasProto_AliasEntryProto() {}
        static final int OUTPUT_SHAPE_INDEX = 1;
        static final int PARAMETER_NUMBER = 2;
        static final int PARAMETER_SHAPE_INDEX = 3;
    }

    /** StackFrameIndexProto */
    static final class StackFrameIndexProto {
        private StackFrameIndexProto() {}
        static final int FILE_NAMES = 1;
        static final int FUNCTION_NAMES = 2;
        static final int FILE_LOCATIONS = 3;
        static final int STACK_FRAMES = 4;
    }

    /** StackFrameIndexProto.FileLocation */
    static final class StackFrameIndexProto_FileLocation {
        private StackFrameIndexProto_FileLocation() {}
        static final int FILE_NAME_ID = 1;
        static final int FUNCTION_NAME_ID = 2;
        static final int LINE = 3;
        static final int COLUMN = 4;
    }

    /** StackFrameIndexProto.StackFrame */
    static final class StackFrameIndexProto_StackFrame {
        private StackFrameIndexProto_StackFrame() {}
        static final int FILE_LOCATION_ID = 1;
        static final int PARENT_FRAME_ID = 2;
    }

    /** HloModuleProto */
    static final class HloModuleProto {
        private HloModuleProto() {}
        static final int NAME = 1;
        static final int ENTRY_COMPUTATION_NAME = 2;
        static final int COMPUTATIONS = 3;
        static final int ENTRY_COMPUTATION_ID = 6;
        static final int SCHEDULE = 7;
        static final int INPUT_OUTPUT_ALIAS = 8;
        static final int STACK_FRAME_INDEX = 17;
    }

    /** LogicalBufferProto */
    static final class LogicalBufferProto {
        private LogicalBufferProto() {}
        static final int ID = 1;
        static final int SIZE = 2;
        static final int DEFINED_AT = 3;
        static final int COLOR = 4;
    }

    /** LogicalBufferProto.Location */
    static final class LogicalBufferProto_Location {
        private LogicalBufferProto_Location() {}
        static final int INSTRUCTION_NAME = 2;
        static final int SHAPE_INDEX = 3;
        static final int INSTRUCTION_ID = 4;
    }

    /** BufferAllocationProto */
    static final class BufferAllocationProto {
        private BufferAllocationProto() {}
        static final int INDEX = 1;
        static final int SIZE = 2;
        static final int IS_THREAD_LOCAL = 3;
        static final int IS_ENTRY_COMPUTATION_PARAMETER = 5;
        static final int PARAMETER_NUMBER = 6;
        static final int MAYBE_LIVE_OUT = 7;
        static final int COLOR = 8;
        static final int ASSIGNED = 9;
        static final int PARAMETER_SHAPE_INDEX = 10;
        static final int IS_TUPLE = 11;
        static final int IS_CONSTANT = 12;
    }

    /** BufferAllocationProto.Assigned */
    static final class BufferAllocationProto_Assigned {
        private BufferAllocationProto_Assigned() {}
        static final int LOGICAL_BUFFER_ID = 1;
        static final int OFFSET = 2;
        static final int SIZE = 3;
    }

    /** HeapSimulatorTrace */
    static final class HeapSimulatorTrace {
        private HeapSimulatorTrace() {}
        static final int EVENTS = 1;
        static final int WHOLE_MODULE_SIMULATION = 2;
        static final int BUFFER_ALLOCATION_INDEX = 3;
    }

    /** HeapSimulatorTrace.Event */
    static final class HeapSimulatorTrace_Event {
        private HeapSimulatorTrace_Event() {}
        static final int KIND = 1;
        static final int BUFFER_ID = 2;
        static final int COMPUTATION_NAME = 3;
        static final int INSTRUCTION_NAME = 4;
        static final int SHARE_WITH_CANONICAL_ID = 5;
    }

    /** BufferAssignmentProto */
    static final class BufferAssignmentProto {
        private BufferAssignmentProto() {}
        static final int LOGICAL_BUFFERS = 1;
        static final int BUFFER_ALIASES = 2;
        static final int BUFFER_ALLOCATIONS = 3;
        static final int HEAP_SIMULATOR_TRACES = 4;
    }

    /** BufferAssignmentProto.BufferAlias */
    static final class BufferAssignmentProto_BufferAlias {
        private BufferAssignmentProto_BufferAlias() {}
        static final int SOURCE_BUFFER_ID = 1;
        static final int LOCATION = 2;
    }

    /** HloProto */
    static final class HloProto {
        private HloProto() {}
        static final int HLO_MODULE = 1;
        static final int BUFFER_ASSIGNMENT = 3;
    }

    /** XSpace */
    static final class XSpace {
        private XSpace() {}
        static final int PLANES = 1;
        static final int HOSTNAMES = 4;
    }

    /** XPlane */
    static final class XPlane {
        private XPlane() {}
        static final int ID = 1;
        static final int NAME = 2;
        static final int EVENT_METADATA = 4;
        static final int STAT_METADATA = 5;
        static final int STATS = 6;
    }

    /** XEventMetadata */
    static final class XEventMetadata {
        private XEventMetadata() {}
        static final int ID = 1;
        static final int NAME = 2;
        static final int STATS = 5;
    }

    /** XStatMetadata */
    static final class XStatMetadata {
        private XStatMetadata() {}
        static final int ID = 1;
        static final int NAME = 2;
    }

    /** XStat */
    static final class XStat {
        private XStat() {}
        static final int METADATA_ID = 1;
        static final int UINT64_VALUE = 3;
        static final int INT64_VALUE = 4;
        static final int STR_VALUE = 5;
        static final int BYTES_VALUE = 6;
        static final int REF_VALUE = 7;
    }

    /** MemoryUsageReportProto (numbers read off jaxlib 0.10.2's files: see the .proto's note) */
    static final class MemoryUsageReportProto {
        private MemoryUsageReportProto() {}
        static final int MEMORY_SPACES = 1;
    }

    /** MemoryUsageReportProto.MemorySpace */
    static final class MemoryUsageReportProto_MemorySpace {
        private MemoryUsageReportProto_MemorySpace() {}
        static final int TOTAL_BYTES = 1;
        static final int COLOR = 2;
    }

    /** How protobuf writes a {@code map<K, V>} field: a repeated message of key and value. */
    static final class MapEntry {
        private MapEntry() {}
        static final int KEY = 1;
        static final int VALUE = 2;
    }
}
