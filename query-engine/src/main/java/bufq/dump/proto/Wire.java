package bufq.dump.proto;

import bufq.util.HashSlots;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * A {@link CodedInputStream} over one proto's bytes that knows where it is: the byte offset and the
 * path of messages and fields being read, for errors such as
 * {@code byte 1234 (HloProto.buffer_assignment.buffer_allocations[3]): ...}. Every read checks the
 * wire type the subset expects, so a message of another kind fails at its first mismatching field.
 */
final class Wire {
    private static final int MAX_DEPTH = 64;

    private final CodedInputStream in;
    private final byte[] bytes;
    private final StringTable strings;
    private final long base;
    private final int from;
    private final String[] names = new String[MAX_DEPTH + 1];
    private final int[] indexes = new int[MAX_DEPTH + 1];
    private int depth;
    private int tag;

    /** Reads {@code bytes[from, from + length)}; offsets in errors count from {@code base} (the slice's place in its file). */
    Wire(byte[] bytes, int from, int length, long base, String root) {
        this.in = CodedInputStream.newInstance(bytes, from, length);
        this.bytes = bytes;
        this.strings = new StringTable();
        this.in.setRecursionLimit(Integer.MAX_VALUE);   // nesting is bounded by this class's own depth checks
        this.base = base;
        this.from = from;
        names[0] = root;
        indexes[0] = -1;
    }

    /** Reads {@code bytes[from, from + length)} of {@code parent}'s array, sharing its strings; errors name {@code root}. */
    Wire(Wire parent, int from, int length, String root) {
        this.in = CodedInputStream.newInstance(parent.bytes, from, length);
        this.in.setRecursionLimit(Integer.MAX_VALUE);
        this.bytes = parent.bytes;
        this.strings = parent.strings;
        this.base = parent.base + (from - parent.from);
        this.from = from;
        names[0] = root;
        indexes[0] = -1;
    }

    /** The next field number of the current message, or 0 at its end. */
    int next() throws ProtoException {
        try {
            tag = in.readTag();
        } catch (IOException e) {
            throw error(e);
        }
        if (tag != 0 && WireFormat.getTagFieldNumber(tag) == 0) throw error("field number 0 (not a proto message)");
        return WireFormat.getTagFieldNumber(tag);
    }

    /** Skips the field just read by {@link #next()} (one the subset does not list). */
    void skip() throws ProtoException {
        try {
            int wt = WireFormat.getTagWireType(tag);
            if (wt == WireFormat.WIRETYPE_END_GROUP) throw error("unexpected end-group marker");
            if (wt == WireFormat.WIRETYPE_START_GROUP) skipGroup();
            else in.skipField(tag);
        } catch (IOException e) {
            throw error(e);
        }
    }

    /**
     * Skips a group (a proto2 field bufq never reads) without recursion: protobuf's own skip
     * recurses once per level, and nothing else bounds it here, so 60,000 nested groups overflowed
     * the stack. Groups nest at most as deep as messages may.
     */
    private void skipGroup() throws IOException, ProtoException {
        int[] open = new int[MAX_DEPTH];
        int depth = 0;
        open[depth++] = WireFormat.getTagFieldNumber(tag);
        while (depth > 0) {
            int t = in.readTag();
            int field = WireFormat.getTagFieldNumber(t), wt = WireFormat.getTagWireType(t);
            if (t == 0) throw error("data ends inside group field " + open[depth - 1] + " (truncated file?)");
            if (wt == WireFormat.WIRETYPE_START_GROUP) {
                if (depth == MAX_DEPTH) throw error("groups nested deeper than " + MAX_DEPTH + " in unknown field " + open[0]);
                open[depth++] = field;
            } else if (wt == WireFormat.WIRETYPE_END_GROUP) {
                if (field != open[depth - 1]) throw error("end of group field " + field + " inside group field " + open[depth - 1]);
                depth--;
            } else {
                in.skipField(t);
            }
        }
    }

    long int64(String field) throws ProtoException {
        expect(WireFormat.WIRETYPE_VARINT, field);
        try {
            return in.readInt64();
        } catch (IOException e) {
            throw error(e);
        }
    }

    int int32(String field) throws ProtoException {
        return (int) int64(field);
    }

    boolean bool(String field) throws ProtoException {
        return int64(field) != 0;
    }

    String string(String field) throws ProtoException {
        expect(WireFormat.WIRETYPE_LENGTH_DELIMITED, field);
        try {
            return in.readStringRequireUtf8();
        } catch (IOException e) {
            throw error(e);
        }
    }

    /**
     * A {@code string} field whose values repeat (opcodes, op_types, source files, the computation and
     * instruction names of heap events): decoded once per proto and shared.
     */
    String repeatedString(String field) throws ProtoException {
        expect(WireFormat.WIRETYPE_LENGTH_DELIMITED, field);
        try {
            int n = in.readRawVarint32();
            if (n == 0) return "";
            if (n < 0) throw error("negative length");
            if (n > MAX_SHARED || n > in.getBytesUntilLimit() && in.getBytesUntilLimit() >= 0) return decode(in.readRawBytes(n), 0, n);
            int at = in.getTotalBytesRead();
            in.skipRawBytes(n);   // checks the bytes are there
            return strings.get(bytes, from + at, n);
        } catch (IOException e) {
            throw error(e);
        }
    }

    private static final int MAX_SHARED = 256;

    /** Whether a {@code string} field holds exactly {@code expected}'s bytes; nothing is decoded. */
    boolean bytesEqual(String field, byte[] expected) throws ProtoException {
        expect(WireFormat.WIRETYPE_LENGTH_DELIMITED, field);
        try {
            int n = in.readRawVarint32();
            if (n < 0) throw error("negative length");
            int at = from + in.getTotalBytesRead();
            in.skipRawBytes(n);   // checks the bytes are there
            return n == expected.length && Arrays.equals(bytes, at, at + n, expected, 0, n);
        } catch (IOException e) {
            throw error(e);
        }
    }

    private String decode(byte[] b, int at, int n) throws ProtoException {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b, at, n)).toString();
        } catch (CharacterCodingException e) {
            throw error("string field is not UTF-8");
        }
    }

    /** Strings of this proto by their bytes, over {@link HashSlots} (a slot's int: where they start): decoded on first sight. */
    private final class StringTable {
        private HashSlots slots = HashSlots.forKeys(512);
        private String[] texts = new String[slots.capacity()];
        private int[] lengths = new int[slots.capacity()];

        String get(byte[] b, int at, int n) throws ProtoException {
            int h = 1;
            for (int i = at; i < at + n; i++) h = 31 * h + b[i];
            int i = slots.first(h);
            while (i >= 0 && (lengths[i] != n || !Arrays.equals(b, slots.value(i), slots.value(i) + n, b, at, at + n))) {
                i = slots.next(i, h);
            }
            if (i >= 0) return texts[i];
            String t = decode(b, at, n);
            texts[~i] = t;
            lengths[~i] = n;
            if (slots.claim(~i, h, at)) {
                String[] ot = texts, nt = new String[ot.length * 2];
                int[] ol = lengths, nl = new int[ol.length * 2];
                slots = slots.grow((from, to) -> {
                    nt[to] = ot[from];
                    nl[to] = ol[from];
                });
                texts = nt;
                lengths = nl;
            }
            return t;
        }
    }

    /** A {@code bytes} field: where its bytes start in the stream's array, and how many. */
    int[] bytesSpan(String field) throws ProtoException {
        expect(WireFormat.WIRETYPE_LENGTH_DELIMITED, field);
        try {
            int n = in.readRawVarint32();
            if (n < 0 || n > in.getBytesUntilLimit() && in.getBytesUntilLimit() >= 0) throw error("length " + n + " runs past the end of the data");
            int at = from + in.getTotalBytesRead();
            in.skipRawBytes(n);
            return new int[] {at, n};
        } catch (IOException e) {
            throw error(e);
        }
    }

    /**
     * Most entries a repeated int64 bufq reads may hold: a shape's dimensions, a layout, a shape
     * index. Far more than any real rank; a 20-million-entry list was read whole before it failed.
     */
    static final int MAX_ENTRIES = 1024;

    /** Most bytes one size or offset may claim, as the text reader's bound: 64 PiB, far below 2^63. */
    static final long MAX_BYTES = 1L << 56;

    /** What the sizes of one kind in a module may add up to: any sum of some of them, doubled, still fits a long. */
    static final long MAX_TOTAL = 1L << 61;

    /** A size or offset in bytes: refused, here, when negative or past {@link #MAX_BYTES}. */
    long bytes(String field) throws ProtoException {
        long v = int64(field);
        if (v < 0) throw error(field + " " + v + " is negative");
        if (v > MAX_BYTES) throw error(field + " " + v + " is more than 2^56 bytes (64 PiB); not a real size");
        return v;
    }

    /** {@code total + v}, refused past {@link #MAX_TOTAL} (both are at most that already). */
    long total(long total, long v, String what) throws ProtoException {
        if (v > MAX_TOTAL - total) throw error(what + " add up to more than 2^61 bytes; not a real module");
        return total + v;
    }

    /** A repeated int64, packed or not: appends to {@code into}, at most {@link #MAX_ENTRIES} in all. */
    void int64s(String field, LongBuilder into) throws ProtoException {
        int wt = WireFormat.getTagWireType(tag);
        try {
            if (wt == WireFormat.WIRETYPE_VARINT) {
                if (into.size() >= MAX_ENTRIES) throw tooMany(field);
                into.add(in.readInt64());
            } else if (wt == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                int limit = in.pushLimit(in.readRawVarint32());
                while (in.getBytesUntilLimit() > 0) {
                    if (into.size() >= MAX_ENTRIES) throw tooMany(field);
                    into.add(in.readInt64());
                }
                in.popLimit(limit);
            } else {
                throw wrongType(field, "varint or packed varints");
            }
        } catch (IOException e) {
            throw error(e);
        }
    }

    private ProtoException tooMany(String field) {
        return error(field + " has more than " + MAX_ENTRIES + " entries; not a real shape");
    }

    /** As {@link #int64s(String, LongBuilder)} without the bound: lists as long as the module (operands, schedules). */
    void int64sUnbounded(String field, LongBuilder into) throws ProtoException {
        int wt = WireFormat.getTagWireType(tag);
        try {
            if (wt == WireFormat.WIRETYPE_VARINT) {
                into.add(in.readInt64());
            } else if (wt == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                int limit = in.pushLimit(in.readRawVarint32());
                while (in.getBytesUntilLimit() > 0) into.add(in.readInt64());
                in.popLimit(limit);
            } else {
                throw wrongType(field, "varint or packed varints");
            }
        } catch (IOException e) {
            throw error(e);
        }
    }

    /** Enters a sub-message field ({@code index} its position when repeated, else -1); pair with {@link #leave(int)}. */
    int enter(String field, int index) throws ProtoException {
        expect(WireFormat.WIRETYPE_LENGTH_DELIMITED, field);
        if (depth == MAX_DEPTH) throw error("messages nested deeper than " + MAX_DEPTH);
        try {
            int length = in.readRawVarint32();
            if (length < 0) throw error("negative length");
            int old = in.pushLimit(length);
            depth++;
            names[depth] = field;
            indexes[depth] = index;
            return old;
        } catch (IOException e) {
            throw error(e);
        }
    }

    void leave(int oldLimit) throws ProtoException {
        if (in.getBytesUntilLimit() != 0) throw error("message ends inside a field");
        in.popLimit(oldLimit);
        depth--;
    }

    /** Whether the whole input was read (call at depth 0 after {@link #next()} returned 0). */
    boolean atEnd() throws ProtoException {
        try {
            return in.isAtEnd();
        } catch (IOException e) {
            throw error(e);
        }
    }

    long offset() { return base + in.getTotalBytesRead(); }

    /** The array this reads ({@link #bytesSpan} positions are in it). */
    byte[] array() { return bytes; }

    /** Where the stream is in the byte array. */
    int position() { return from + in.getTotalBytesRead(); }

    /** Skips the rest of the current message (one read elsewhere). */
    void skipRest() throws ProtoException {
        try {
            in.skipRawBytes(in.getBytesUntilLimit());
        } catch (IOException e) {
            throw error(e);
        }
    }

    /** Bytes left in the current message. */
    int bytesLeft() { return in.getBytesUntilLimit(); }

    String path() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i <= depth; i++) {
            if (i > 0) b.append('.');
            b.append(names[i]);
            if (indexes[i] >= 0) b.append('[').append(indexes[i]).append(']');
        }
        return b.toString();
    }

    ProtoException error(String reason) {
        return new ProtoException(offset(), path(), reason);
    }

    private ProtoException error(IOException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        if (m.contains("truncated") || m.contains("ended unexpectedly")) m = "data ends inside a field (truncated file?)";
        else if (m.contains("malformed varint")) m = "malformed varint";
        else if (m.contains("invalid tag")) m = "invalid field tag";
        else if (m.contains("invalid UTF-8")) m = "string field is not UTF-8";
        return error(m.toLowerCase(Locale.ROOT).replaceAll("\\.$", "").lines().findFirst().orElse(m));
    }

    private void expect(int wireType, String field) throws ProtoException {
        if (WireFormat.getTagWireType(tag) != wireType) throw wrongType(field, TYPES[wireType]);
    }

    private ProtoException wrongType(String field, String expected) {
        int wt = WireFormat.getTagWireType(tag);
        return error("field " + WireFormat.getTagFieldNumber(tag) + " (" + field + ") has wire type "
                + (wt < TYPES.length ? TYPES[wt] : String.valueOf(wt)) + ", expected " + expected
                + " (not the message bufq expected here)");
    }

    private static final String[] TYPES = {"varint", "fixed64", "length-delimited", "start-group", "end-group", "fixed32", "6", "7"};

    /** A {@code string} field read by {@link #bytesSpan}, decoded now; errors name {@code field}. */
    String utf8(int[] span, String field) throws ProtoException {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, span[0], span[1])).toString();
        } catch (CharacterCodingException e) {
            throw error("string field " + field + " is not UTF-8");
        }
    }

    /** Decodes UTF-8 from a {@code bytes} field read by {@link #bytesSpan}. */
    static String utf8(byte[] array, int[] span) {
        return new String(array, span[0], span[1], StandardCharsets.UTF_8);
    }

    /** A growable long array (repeated int64 fields without boxing). */
    static final class LongBuilder {
        private long[] a = new long[4];
        private int n;

        void add(long v) {
            if (n == a.length) a = Arrays.copyOf(a, n * 2);
            a[n++] = v;
        }

        long[] build() { return n == 0 ? Messages.NO_LONGS : Arrays.copyOf(a, n); }

        int size() { return n; }

        long get(int i) { return a[i]; }

        void clear() { n = 0; }
    }
}
