package bufq.dump.proto;


import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reader of one proto's wire format over its byte array that knows where it is: the byte offset
 * and the path of messages and fields being read, for errors such as
 * {@code byte 1234 (HloProto.buffer_assignment.buffer_allocations[3]): ...}. Every read checks the
 * wire type the subset expects, so a message of another kind fails at its first mismatching field.
 *
 * <p>It decodes the array itself rather than through protobuf-java's {@code CodedInputStream}: that
 * stream takes a byte-at-a-time slow path for every varint within ten bytes of the end of the
 * message being read, which is most varints of the small messages a module is made of (shapes,
 * layouts, logical buffers, heap events): 14% of a {@code .hlo.pb}'s load went there. Here a varint
 * is one loop bounded by the message's end, whatever its place.
 */
final class Wire {
    private static final int MAX_DEPTH = 64;

    private final byte[] bytes;
    private final StringTable strings;
    private final long base;
    private final int from;
    /** Where the next byte is read, in {@link #bytes}. */
    private int pos;
    /** The end of the message being read, in {@link #bytes}. */
    private int limit;
    private final String[] names = new String[MAX_DEPTH + 1];
    private final int[] indexes = new int[MAX_DEPTH + 1];
    private int depth;
    private int tag;

    /** Reads {@code bytes[from, from + length)}; offsets in errors count from {@code base} (the slice's place in its file). */
    Wire(byte[] bytes, int from, int length, long base, String root) {
        this(bytes, new StringTable(bytes), from, length, base, root);
    }

    /** Reads {@code bytes[from, from + length)} of {@code parent}'s array, sharing its strings; errors name {@code root}. */
    Wire(Wire parent, int from, int length, String root) {
        this(parent.bytes, parent.strings, from, length, parent.base + (from - parent.from), root);
    }

    private Wire(byte[] bytes, StringTable strings, int from, int length, long base, String root) {
        if (from < 0 || length < 0 || from > bytes.length - length) throw new IndexOutOfBoundsException(from + "+" + length);
        this.bytes = bytes;
        this.strings = strings;
        this.base = base;
        this.from = from;
        this.pos = from;
        this.limit = from + length;
        names[0] = root;
        indexes[0] = -1;
    }

    /** The next field number of the current message, or 0 at its end. */
    int next() throws ProtoException {
        int p = pos;
        if (p >= limit) {
            tag = 0;
            return 0;
        }
        int b = bytes[p];
        if (b >= 8) {   // a one-byte tag of fields 1-15, the most common: no call (the client compiler inlines little)
            pos = p + 1;
            tag = b;
            return b >>> 3;
        }
        tag = (int) varint();
        int field = tag >>> 3;
        if (field == 0) throw error("field number 0 (not a proto message)");
        return field;
    }

    /** A varint, at most ten bytes, none past the current message's end. */
    private long varint() throws ProtoException {
        byte[] b = bytes;
        int p = pos;
        if (p >= limit) throw truncated();
        long x = b[p++];
        if (x >= 0) {
            pos = p;
            return x;
        }
        x &= 0x7f;
        for (int shift = 7; shift < 64; shift += 7) {
            if (p >= limit) throw truncated();
            byte c = b[p++];
            x |= (long) (c & 0x7f) << shift;
            if (c >= 0) {
                pos = p;
                return x;
            }
        }
        throw error("malformed varint");
    }

    /** A length prefix: the bytes it claims must be in the current message. */
    private int length() throws ProtoException {
        long n = varint();
        if (n < 0 || n > Integer.MAX_VALUE) throw error("negative length");
        if (n > limit - pos) throw truncated();
        return (int) n;
    }

    private ProtoException truncated() {
        return error("data ends inside a field (truncated file?)");
    }

    private void skipBytes(int n) throws ProtoException {
        if (n > limit - pos) throw truncated();
        pos += n;
    }

    /** Skips the field just read by {@link #next()} (one the subset does not list). */
    void skip() throws ProtoException {
        int p = pos, t = tag & 7;
        if (p < limit) {   // a one-byte varint, or a length of one byte: no call
            int b = bytes[p];
            if (t == WIRETYPE_VARINT && b >= 0) {
                pos = p + 1;
                return;
            }
            if (t == WIRETYPE_LENGTH_DELIMITED && b >= 0 && b < limit - p) {
                pos = p + 1 + b;
                return;
            }
        }
        skipField(tag);
    }

    private void skipField(int t) throws ProtoException {
        switch (t & 7) {
            case 0 -> varint();
            case 1 -> skipBytes(8);
            case 2 -> {
                int n = length();   // (not pos += length(): pos would be read before the length's bytes)
                pos += n;
            }
            case 3 -> skipGroup();
            case 4 -> throw error("unexpected end-group marker");
            case 5 -> skipBytes(4);
            default -> throw error("invalid wire type " + (t & 7));
        }
    }

    /**
     * Skips a group (a proto2 field bufq never reads) without recursion: 60,000 nested groups
     * overflowed the stack of a recursive skip. Groups nest at most as deep as messages may.
     */
    private void skipGroup() throws ProtoException {
        int[] open = new int[MAX_DEPTH];
        int depth = 0;
        open[depth++] = tag >>> 3;
        while (depth > 0) {
            if (pos >= limit) throw error("data ends inside group field " + open[depth - 1] + " (truncated file?)");
            int t = (int) varint();
            int field = t >>> 3, wt = t & 7;
            if (field == 0) throw error("field number 0 (not a proto message)");
            if (wt == WIRETYPE_START_GROUP) {
                if (depth == MAX_DEPTH) throw error("groups nested deeper than " + MAX_DEPTH + " in unknown field " + open[0]);
                open[depth++] = field;
            } else if (wt == WIRETYPE_END_GROUP) {
                if (field != open[depth - 1]) throw error("end of group field " + field + " inside group field " + open[depth - 1]);
                depth--;
            } else {
                skipField(t);
            }
        }
    }

    private static final int WIRETYPE_VARINT = 0, WIRETYPE_LENGTH_DELIMITED = 2, WIRETYPE_START_GROUP = 3,
            WIRETYPE_END_GROUP = 4;

    long int64(String field) throws ProtoException {
        expect(WIRETYPE_VARINT, field);
        return varint();
    }

    int int32(String field) throws ProtoException {
        return (int) int64(field);
    }

    boolean bool(String field) throws ProtoException {
        return int64(field) != 0;
    }

    String string(String field) throws ProtoException {
        expect(WIRETYPE_LENGTH_DELIMITED, field);
        int n = length();
        int at = pos;
        pos += n;
        return decode(bytes, at, n);
    }

    /**
     * A {@code string} field whose values repeat (opcodes, op_types, source files, the computation and
     * instruction names of heap events): decoded once per proto and shared.
     */
    String repeatedString(String field) throws ProtoException {
        expect(WIRETYPE_LENGTH_DELIMITED, field);
        int n = length();
        int at = pos;
        pos += n;
        if (n == 0) return "";
        return n > MAX_SHARED ? decode(bytes, at, n) : strings.get(at, n, this);
    }

    private static final int MAX_SHARED = 256;

    /** Whether a {@code string} field holds exactly {@code expected}'s bytes; nothing is decoded. */
    boolean bytesEqual(String field, byte[] expected) throws ProtoException {
        expect(WIRETYPE_LENGTH_DELIMITED, field);
        int n = length();
        int at = pos;
        pos += n;
        return n == expected.length && Arrays.equals(bytes, at, at + n, expected, 0, n);
    }

    /** UTF-8, strictly: ASCII (nearly every name) is copied as it is. */
    private String decode(byte[] b, int at, int n) throws ProtoException {
        return decode(b, at, n, "string field is not UTF-8");
    }

    private String decode(byte[] b, int at, int n, String notUtf8) throws ProtoException {
        int end = at + n;
        int i = at;
        while (i < end && b[i] >= 0) i++;
        if (i == end) return new String(b, at, n, StandardCharsets.ISO_8859_1);
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b, at, n)).toString();
        } catch (CharacterCodingException e) {
            throw error(notUtf8);
        }
    }

    /** Strings of this proto by their bytes: decoded on first sight (the table made on first use). */
    private static final class StringTable {
        private final byte[] bytes;
        private SpanTable<String> table;

        StringTable(byte[] b) {
            this.bytes = b;
        }

        /** @param w the reader asking, for its error */
        String get(int at, int n, Wire w) throws ProtoException {
            if (table == null) table = new SpanTable<>(bytes, 512);
            String t = table.get(at, n);
            if (t == null) {
                t = w.decode(table.bytes(), at, n);
                table.put(at, n, t);
            }
            return t;
        }
    }

    /** A {@code bytes} field: where its bytes start in the stream's array, and how many. */
    int[] bytesSpan(String field) throws ProtoException {
        expect(WIRETYPE_LENGTH_DELIMITED, field);
        int n = length();
        int at = pos;
        pos += n;
        return new int[] {at, n};
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
        int wt = tag & 7;
        if (wt == WIRETYPE_VARINT) {
            if (into.size() >= MAX_ENTRIES) throw tooMany(field);
            into.add(varint());
        } else if (wt == WIRETYPE_LENGTH_DELIMITED) {
            int outer = limit;
            int n = length();
            limit = pos + n;
            while (pos < limit) {
                if (into.size() >= MAX_ENTRIES) throw tooMany(field);
                into.add(varint());
            }
            limit = outer;
        } else {
            throw wrongType(field, "varint or packed varints");
        }
    }

    private ProtoException tooMany(String field) {
        return error(field + " has more than " + MAX_ENTRIES + " entries; not a real shape");
    }

    /** As {@link #int64s(String, LongBuilder)} without the bound: lists as long as the module (operands, schedules). */
    void int64sUnbounded(String field, LongBuilder into) throws ProtoException {
        int wt = tag & 7;
        if (wt == WIRETYPE_VARINT) {
            into.add(varint());
        } else if (wt == WIRETYPE_LENGTH_DELIMITED) {
            int outer = limit;
            int n = length();
            limit = pos + n;
            while (pos < limit) into.add(varint());
            limit = outer;
        } else {
            throw wrongType(field, "varint or packed varints");
        }
    }

    /** Enters a sub-message field ({@code index} its position when repeated, else -1); pair with {@link #leave(int)}. */
    int enter(String field, int index) throws ProtoException {
        expect(WIRETYPE_LENGTH_DELIMITED, field);
        if (depth == MAX_DEPTH) throw error("messages nested deeper than " + MAX_DEPTH);
        int n = length();
        int old = limit;
        limit = pos + n;
        depth++;
        names[depth] = field;
        indexes[depth] = index;
        return old;
    }

    void leave(int oldLimit) throws ProtoException {
        if (pos != limit) throw error("message ends inside a field");
        limit = oldLimit;
        depth--;
    }

    /** Whether the whole input was read (call at depth 0 after {@link #next()} returned 0). */
    boolean atEnd() {
        return pos >= limit;
    }

    long offset() { return base + (pos - from); }

    /** The array this reads ({@link #bytesSpan} positions are in it). */
    byte[] array() { return bytes; }

    /** Where the reader is in the byte array. */
    int position() { return pos; }

    /** Skips the rest of the current message (one read elsewhere). */
    void skipRest() {
        pos = limit;
    }

    /** Bytes left in the current message. */
    int bytesLeft() { return limit - pos; }

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

    private void expect(int wireType, String field) throws ProtoException {
        if ((tag & 7) != wireType) throw wrongType(field, TYPES[wireType]);
    }

    private ProtoException wrongType(String field, String expected) {
        int wt = tag & 7;
        return error("field " + (tag >>> 3) + " (" + field + ") has wire type "
                + (wt < TYPES.length ? TYPES[wt] : String.valueOf(wt)) + ", expected " + expected
                + " (not the message bufq expected here)");
    }

    private static final String[] TYPES = {"varint", "fixed64", "length-delimited", "start-group", "end-group", "fixed32", "6", "7"};

    /** A {@code string} field read by {@link #bytesSpan}, decoded now; errors name {@code field}. */
    String utf8(int[] span, String field) throws ProtoException {
        return decode(bytes, span[0], span[1], "string field " + field + " is not UTF-8");
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
