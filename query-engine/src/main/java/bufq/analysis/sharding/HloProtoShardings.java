package bufq.analysis.sharding;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reads the entry parameters' {@code OpSharding} from an {@code xla.HloProto} ({@code .hlo.pb}, or
 * {@code .gz}; {@code --xla_dump_hlo_as_proto}) and prints each as the HLO text would. The proto
 * holds no {@code num_partitions}: the devices are the most any parameter's sharding spans.
 */
final class HloProtoShardings {
    private HloProtoShardings() {}

    // xla.HloProto, HloModuleProto, HloComputationProto, HloInstructionProto, OpMetadata, OpSharding
    private static final int PROTO_MODULE = 1, MODULE_COMPUTATIONS = 3, MODULE_ENTRY_ID = 6;
    private static final int COMPUTATION_INSTRUCTIONS = 2, COMPUTATION_ID = 5;
    private static final int INSTRUCTION_NAME = 1, INSTRUCTION_OPCODE = 2, INSTRUCTION_METADATA = 7, INSTRUCTION_PARAMETER = 9,
            INSTRUCTION_SHARDING = 40;
    private static final int METADATA_OP_NAME = 2;
    private static final int SHARDING_TYPE = 1, SHARDING_TILE_DIMS = 3, SHARDING_DEVICES = 4, SHARDING_TUPLE = 5,
            SHARDING_REPLICATE_LAST = 6, SHARDING_LAST_TILE_DIMS = 8, SHARDING_IOTA_RESHAPE = 9;
    private static final int REPLICATED = 0, MAXIMAL = 1, TUPLE = 2, MANUAL = 4;

    static HloTextShardings.Read read(Path file, String shown) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = shown.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw) {
            return read(in.readAllBytes());
        }
    }

    private record Param(String name, int number, String opName, String sharding, long devices) {}

    static HloTextShardings.Read read(byte[] bytes) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        in.setRecursionLimit(64);
        in.setSizeLimit(Integer.MAX_VALUE);
        for (int tag; (tag = in.readTag()) != 0; ) {
            if (WireFormat.getTagFieldNumber(tag) == PROTO_MODULE && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED)
                return module(in.readBytes().newCodedInput());
            in.skipField(tag);
        }
        throw new IOException("no HloModuleProto (field 1 of xla.HloProto)");
    }

    private static HloTextShardings.Read module(CodedInputStream in) throws IOException {
        long entry = -1;
        Map<Long, List<Param>> byComputation = new LinkedHashMap<>();
        for (int tag; (tag = in.readTag()) != 0; ) {
            int f = WireFormat.getTagFieldNumber(tag);
            if (f == MODULE_COMPUTATIONS) {
                CodedInputStream c = in.readBytes().newCodedInput();
                long id = -1;
                List<Param> params = new ArrayList<>();
                for (int t; (t = c.readTag()) != 0; ) {
                    int g = WireFormat.getTagFieldNumber(t);
                    if (g == COMPUTATION_INSTRUCTIONS) {
                        Param p = instruction(c.readBytes().newCodedInput());
                        if (p != null) params.add(p);
                    } else if (g == COMPUTATION_ID) {
                        id = c.readInt64();
                    } else {
                        c.skipField(t);
                    }
                }
                byComputation.put(id, params);
            } else if (f == MODULE_ENTRY_ID) {
                entry = in.readInt64();
            } else {
                in.skipField(tag);
            }
        }
        List<Param> params = byComputation.getOrDefault(entry, List.of());
        Map<String, ShardedParameter> out = new LinkedHashMap<>();
        long devices = 1;
        for (Param p : params) {
            HloSharding h = p.sharding() == null ? null : HloSharding.parse(p.sharding());
            out.put(p.name(), new ShardedParameter(p.name(), p.number(), null, h, p.opName()));
            devices = Math.max(devices, p.devices());
        }
        return new HloTextShardings.Read(devices, 1, out);
    }

    /** A parameter instruction, or null for any other. */
    private static Param instruction(CodedInputStream in) throws IOException {
        String name = null, opcode = null, opName = null, sharding = null;
        long number = -1, devices = 1;
        for (int tag; (tag = in.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case INSTRUCTION_NAME -> name = in.readStringRequireUtf8();
                case INSTRUCTION_OPCODE -> opcode = in.readStringRequireUtf8();
                case INSTRUCTION_PARAMETER -> number = in.readInt64();
                case INSTRUCTION_METADATA -> {
                    CodedInputStream m = in.readBytes().newCodedInput();
                    for (int t; (t = m.readTag()) != 0; ) {
                        if (WireFormat.getTagFieldNumber(t) == METADATA_OP_NAME) opName = m.readStringRequireUtf8();
                        else m.skipField(t);
                    }
                }
                case INSTRUCTION_SHARDING -> {
                    long[] d = {1};
                    sharding = sharding(in.readBytes().newCodedInput(), d);
                    devices = d[0];
                }
                default -> in.skipField(tag);
            }
        }
        if (!"parameter".equals(opcode) || name == null) return null;
        return new Param(name, (int) number, opName, sharding, devices);
    }

    /**
     * An {@code OpSharding} as {@code HloSharding::ToString} prints it; {@code devices[0]} becomes
     * the most devices it spans.
     */
    static String sharding(CodedInputStream in, long[] devices) throws IOException {
        int type = REPLICATED;
        List<Long> dims = new ArrayList<>(), list = new ArrayList<>(), reshape = new ArrayList<>(), lastDims = new ArrayList<>();
        List<String> tuple = new ArrayList<>();
        boolean replicateLast = false;
        for (int tag; (tag = in.readTag()) != 0; ) {
            int f = WireFormat.getTagFieldNumber(tag);
            boolean packed = WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED;
            switch (f) {
                case SHARDING_TYPE -> type = in.readEnum();
                case SHARDING_TILE_DIMS -> ints(in, packed, dims);
                case SHARDING_DEVICES -> ints(in, packed, list);
                case SHARDING_IOTA_RESHAPE -> ints(in, packed, reshape);
                case SHARDING_LAST_TILE_DIMS -> ints(in, packed, lastDims);
                case SHARDING_REPLICATE_LAST -> replicateLast = in.readBool();
                case SHARDING_TUPLE -> tuple.add(sharding(in.readBytes().newCodedInput(), devices));
                default -> in.skipField(tag);
            }
        }
        switch (type) {
            case REPLICATED: return "{replicated}";
            case MAXIMAL: return "{maximal device=" + (list.isEmpty() ? 0 : list.get(0)) + "}";
            case TUPLE: return "{" + String.join(", ", tuple) + "}";
            case MANUAL: return "{manual}";
            default: break;
        }
        if (dims.isEmpty()) return "{unknown}";
        long n = 1;
        for (long d : dims) n *= d;
        devices[0] = Math.max(devices[0], n);
        StringBuilder b = new StringBuilder("{devices=[").append(join(dims)).append(']');
        if (!reshape.isEmpty() || list.isEmpty()) b.append("<=[").append(reshape.isEmpty() ? String.valueOf(n) : join(reshape)).append(']');
        else b.append(join(list));
        if (replicateLast) b.append(" last_tile_dim_replicate");
        if (!lastDims.isEmpty()) {
            List<String> kinds = new ArrayList<>();
            for (long k : lastDims) kinds.add(k == REPLICATED ? "replicated" : k == MANUAL ? "manual" : "unknown");
            b.append(" last_tile_dims={").append(String.join(", ", kinds)).append('}');
        }
        return b.append('}').toString();
    }

    private static void ints(CodedInputStream in, boolean packed, List<Long> out) throws IOException {
        if (!packed) {
            out.add(in.readInt64());
            return;
        }
        int limit = in.pushLimit(in.readRawVarint32());
        while (in.getBytesUntilLimit() > 0) out.add(in.readInt64());
        in.popLimit(limit);
    }

    private static String join(List<Long> xs) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < xs.size(); i++) b.append(i == 0 ? "" : ",").append(xs.get(i));
        return b.toString();
    }
}
