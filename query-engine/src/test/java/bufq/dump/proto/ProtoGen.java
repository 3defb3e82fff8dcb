package bufq.dump.proto;

import com.google.protobuf.CodedOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@code xla.HloProto}s for tests (the fields of {@code bufq_xla_subset.proto}, by the numbers
 * of {@link FieldNumbers}): one entry computation of instructions, a schedule in their order unless told
 * otherwise, and a buffer assignment with one logical buffer and one allocation per array value an
 * instruction defines at its top index. Enough to build the hostile shapes (deep tuples,
 * wide operand lists, chains in reverse order, huge sizes) without XLA.
 */
public final class ProtoGen {
    public static final int F32 = 11, TUPLE = 13;
    private static final long COMPUTATION_ID = 1;

    /** An instruction: {@code shape} is a written ShapeProto ({@link #array}, {@link #tuple}). */
    public record Ins(String name, String opcode, byte[] shape, long id, long[] operands, long tupleIndex, long parameter) {}

    private final List<Ins> instructions = new ArrayList<>();
    private final List<long[]> buffers = new ArrayList<>();   // {id, size, instruction id}
    private long[] schedule;
    private long rootId = -1;
    private byte[] moduleExtra = new byte[0];

    /** Adds an instruction; ids are 1-based positions unless given. */
    public long add(String name, String opcode, byte[] shape, long... operands) {
        long id = instructions.size() + 1;
        instructions.add(new Ins(name, opcode, shape, id, operands, 0, 0));
        return id;
    }

    public long parameter(String name, byte[] shape, long number) {
        long id = instructions.size() + 1;
        instructions.add(new Ins(name, "parameter", shape, id, new long[0], 0, number));
        return id;
    }

    public long gte(String name, byte[] shape, long operand, long index) {
        long id = instructions.size() + 1;
        instructions.add(new Ins(name, "get-tuple-element", shape, id, new long[] {operand}, index, 0));
        return id;
    }

    /** A logical buffer of {@code size} bytes defined at instruction {@code id}'s top index, in an allocation of its own. */
    public ProtoGen buffer(long id, long size) {
        buffers.add(new long[] {buffers.size() + 1, size, id});
        return this;
    }

    /** The schedule's order of instruction ids (default: the order they were added). */
    public ProtoGen schedule(long... ids) {
        this.schedule = ids;
        return this;
    }

    /** No schedule at all. */
    public ProtoGen noSchedule() {
        this.schedule = new long[0];
        return this;
    }

    /** Bytes written at the end of the HloModuleProto as they are (unknown fields, groups). */
    public ProtoGen moduleExtra(byte[] raw) {
        this.moduleExtra = raw;
        return this;
    }

    /** Field {@code field} as {@code depth} groups nested in one another (a proto2 field bufq does not read). */
    public static byte[] nestedGroups(int field, int depth) {
        return message(o -> {
            for (int k = 0; k < depth; k++) o.writeTag(field, com.google.protobuf.WireFormat.WIRETYPE_START_GROUP);
            for (int k = 0; k < depth; k++) o.writeTag(field, com.google.protobuf.WireFormat.WIRETYPE_END_GROUP);
        });
    }

    public ProtoGen root(long id) {
        this.rootId = id;
        return this;
    }

    /** The instructions written in reverse of the order they were added (users before operands). */
    public ProtoGen reversed() {
        java.util.Collections.reverse(instructions);
        return this;
    }

    public int size() { return instructions.size(); }

    public static byte[] array(long... dims) {
        return message(o -> {
            o.writeInt32(2, F32);
            for (long d : dims) o.writeInt64(3, d);
        });
    }

    public static byte[] tuple(byte[]... elements) {
        return message(o -> {
            o.writeInt32(2, TUPLE);
            for (byte[] e : elements) o.writeByteArray(4, e);
        });
    }

    public byte[] bytes() {
        long root = rootId >= 0 ? rootId : instructions.get(instructions.size() - 1).id();
        byte[] computation = message(o -> {
            o.writeString(1, "main");
            for (Ins i : instructions) o.writeByteArray(2, instruction(i));
            o.writeInt64(5, COMPUTATION_ID);
            o.writeInt64(6, root);
        });
        long[] order = schedule;
        if (order == null) {
            order = new long[instructions.size()];
            for (int k = 0; k < order.length; k++) order[k] = k + 1;
        }
        long[] sequence = order;
        byte[] module = message(o -> {
            o.writeString(1, "gen");
            o.writeString(2, "main");
            o.writeByteArray(3, computation);
            o.writeInt64(6, COMPUTATION_ID);
            if (sequence.length > 0) {
                byte[] ids = message(s -> { for (long id : sequence) s.writeInt64(1, id); });
                byte[] entry = message(e -> {
                    e.writeInt64(1, COMPUTATION_ID);
                    e.writeByteArray(2, ids);
                });
                o.writeByteArray(7, message(s -> s.writeByteArray(1, entry)));
            }
            o.writeRawBytes(moduleExtra);
        });
        byte[] assignment = message(o -> {
            for (long[] b : buffers) {
                byte[] at = message(l -> l.writeInt64(4, b[2]));
                o.writeByteArray(1, message(l -> {
                    l.writeInt64(1, b[0]);
                    l.writeInt64(2, b[1]);
                    l.writeByteArray(3, at);
                }));
            }
            long index = 0;
            for (long[] b : buffers) {
                long ix = index++;
                byte[] assigned = message(a -> {
                    a.writeInt64(1, b[0]);
                    a.writeInt64(3, b[1]);
                });
                o.writeByteArray(3, message(a -> {
                    a.writeInt64(1, ix);
                    a.writeInt64(2, b[1]);
                    a.writeByteArray(9, assigned);
                }));
            }
        });
        return message(o -> {
            o.writeByteArray(1, module);
            o.writeByteArray(3, assignment);
        });
    }

    private static byte[] instruction(Ins i) {
        return message(o -> {
            o.writeString(1, i.name());
            o.writeString(2, i.opcode());
            o.writeByteArray(3, i.shape());
            if (i.parameter() != 0) o.writeInt64(9, i.parameter());
            if (i.tupleIndex() != 0) o.writeInt64(13, i.tupleIndex());
            o.writeInt64(35, i.id());
            if (i.operands().length > 0) {
                byte[] packed = message(p -> { for (long id : i.operands()) p.writeInt64NoTag(id); });
                o.writeByteArray(36, packed);
            }
        });
    }

    /** Writes one message's fields. */
    public interface Body {
        void write(CodedOutputStream o) throws IOException;
    }

    public static byte[] message(Body body) {
        try {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            CodedOutputStream o = CodedOutputStream.newInstance(b);
            body.write(o);
            o.flush();
            return b.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
