package bufq.dump.proto;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Wire} decodes the wire format itself; protobuf-java's writer and reader are its oracle:
 * random messages written by {@link CodedOutputStream} read back the same, varints at every place in
 * a message (the ends of small messages are where a slower path used to be taken), and every cut
 * and malformed input an error with the byte offset, never an exception of another kind.
 */
class WireTest {
    /** A varint field, a length-delimited field, a nested message with packed varints, fixed fields. */
    private record Sample(long a, byte[] skipped, long[] packed, long inner, int fixed32, long fixed64) {}

    private static long randomLong(SplittableRandom r) {
        return switch (r.nextInt(6)) {
            case 0 -> r.nextInt(128);                          // one byte
            case 1 -> r.nextLong(1L << 14);                    // two
            case 2 -> r.nextLong();                            // up to ten (negative: ten)
            case 3 -> -r.nextInt(1000);                        // ten bytes
            case 4 -> Long.MAX_VALUE - r.nextInt(3);
            default -> (1L << (7 * r.nextInt(1, 10))) - r.nextInt(2);   // at a length boundary
        };
    }

    private static Sample sample(SplittableRandom r) {
        byte[] skipped = new byte[r.nextInt(300)];   // a prefix of one byte or two
        r.nextBytes(skipped);
        long[] packed = new long[r.nextInt(6)];
        for (int i = 0; i < packed.length; i++) packed[i] = randomLong(r);
        return new Sample(randomLong(r), skipped, packed, randomLong(r), r.nextInt(), r.nextLong());
    }

    private static byte[] write(List<Sample> samples) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        for (Sample s : samples) {
            ByteArrayOutputStream innerBytes = new ByteArrayOutputStream();
            CodedOutputStream inner = CodedOutputStream.newInstance(innerBytes);
            ByteArrayOutputStream packedBytes = new ByteArrayOutputStream();
            CodedOutputStream packed = CodedOutputStream.newInstance(packedBytes);
            for (long v : s.packed()) packed.writeInt64NoTag(v);
            packed.flush();
            inner.writeByteArray(1, packedBytes.toByteArray());
            inner.writeInt64(2, s.inner());   // last: a varint at the very end of the message
            inner.flush();
            ByteArrayOutputStream messageBytes = new ByteArrayOutputStream();
            CodedOutputStream message = CodedOutputStream.newInstance(messageBytes);
            message.writeByteArray(7, s.skipped());
            message.writeFixed32(8, s.fixed32());
            message.writeByteArray(3, innerBytes.toByteArray());
            message.writeFixed64(9, s.fixed64());
            message.writeInt64(1, s.a());
            message.flush();
            out.writeByteArray(1, messageBytes.toByteArray());
        }
        out.flush();
        return bytes.toByteArray();
    }

    /** Reads what {@link #write} wrote: fields 7, 8 and 9 skipped, the others read. */
    private static List<long[]> read(byte[] bytes) throws ProtoException {
        Wire w = new Wire(bytes, 0, bytes.length, 0, "Test");
        List<long[]> out = new ArrayList<>();
        for (int f; (f = w.next()) != 0; ) {
            int l = w.enter("samples", out.size());
            long a = 0, inner = 0;
            Wire.LongBuilder packed = new Wire.LongBuilder();
            for (int g; (g = w.next()) != 0; ) {
                if (g == 1) {
                    a = w.int64("a");
                } else if (g == 3) {
                    int m = w.enter("inner", -1);
                    for (int h; (h = w.next()) != 0; ) {
                        if (h == 1) w.int64sUnbounded("packed", packed);
                        else if (h == 2) inner = w.int64("inner");
                        else w.skip();
                    }
                    w.leave(m);
                } else {
                    w.skip();
                }
            }
            w.leave(l);
            long[] row = new long[2 + packed.size()];
            row[0] = a;
            row[1] = inner;
            for (int i = 0; i < packed.size(); i++) row[2 + i] = packed.get(i);
            out.add(row);
        }
        assertTrue(w.atEnd());
        return out;
    }

    @Test
    void readsWhatProtobufWrites() throws Exception {
        SplittableRandom r = new SplittableRandom(31);
        for (int round = 0; round < 200; round++) {
            List<Sample> samples = new ArrayList<>();
            for (int i = r.nextInt(1, 6); i > 0; i--) samples.add(sample(r));
            List<long[]> read = read(write(samples));
            assertEquals(samples.size(), read.size());
            for (int i = 0; i < samples.size(); i++) {
                Sample s = samples.get(i);
                long[] row = read.get(i);
                assertEquals(s.a(), row[0], "round " + round);
                assertEquals(s.inner(), row[1], "round " + round);
                assertArrayEquals(s.packed(), java.util.Arrays.copyOfRange(row, 2, row.length), "round " + round);
            }
        }
    }

    @Test
    void everyCutIsAnErrorWithItsOffsetAsProtobufAlsoRefusesIt() throws Exception {
        SplittableRandom r = new SplittableRandom(7);
        byte[] whole = write(List.of(sample(r), sample(r)));
        int refused = 0;
        for (int n = 1; n < whole.length; n++) {
            byte[] cut = java.util.Arrays.copyOf(whole, n);
            boolean protobufRefuses = refusedByProtobuf(cut);
            try {
                read(cut);
                assertFalse(protobufRefuses, "protobuf refuses the first " + n + " bytes; Wire read them");
            } catch (ProtoException e) {
                refused++;
                assertTrue(e.getMessage().startsWith("byte "), e.getMessage());
                assertTrue(e.offset() <= n, e.getMessage());
            }
        }
        assertTrue(refused > whole.length / 2, refused + " of " + whole.length + " cuts refused");
    }

    /** Whether protobuf-java, walking every message the way {@link #read} does, finds the bytes cut short. */
    private static boolean refusedByProtobuf(byte[] bytes) {
        try {
            CodedInputStream in = CodedInputStream.newInstance(bytes);
            while (!in.isAtEnd()) {
                in.readTag();
                CodedInputStream message = CodedInputStream.newInstance(in.readByteArray());
                for (int t; (t = message.readTag()) != 0; ) {
                    if (t >>> 3 == 3) {
                        CodedInputStream inner = CodedInputStream.newInstance(message.readByteArray());
                        for (int u; (u = inner.readTag()) != 0; ) {
                            if (u >>> 3 == 1) {
                                CodedInputStream packed = CodedInputStream.newInstance(inner.readByteArray());
                                while (!packed.isAtEnd()) packed.readInt64();
                            } else {
                                inner.skipField(u);
                            }
                        }
                    } else {
                        message.skipField(t);
                    }
                }
            }
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void aVarintOfElevenBytesIsMalformed() {
        byte[] bytes = {0x08, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01};
        Wire w = new Wire(bytes, 0, bytes.length, 100, "Test");
        ProtoException e = assertThrows(ProtoException.class, () -> {
            w.next();
            w.int64("a");
        });
        assertEquals("malformed varint", e.reason());
        assertEquals(101, e.offset(), "the malformed varint's first byte");
    }

    @Test
    void aLengthPastItsMessageIsRefusedAndALengthPrefixOfTwoBytesIsSkippedWhole() throws Exception {
        // field 1: 200 bytes (a two-byte length), then field 2 = 42; then a field 3 claiming 5 bytes of 2.
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(b);
        out.writeByteArray(1, new byte[200]);
        out.writeInt64(2, 42);
        out.flush();
        byte[] head = b.toByteArray();
        Wire w = new Wire(head, 0, head.length, 0, "Test");
        assertEquals(1, w.next());
        w.skip();
        assertEquals(2, w.next());
        assertEquals(42, w.int64("b"));
        assertEquals(0, w.next());

        byte[] bad = {0x1a, 0x05, 0x01, 0x02};
        Wire v = new Wire(bad, 0, bad.length, 0, "Test");
        assertEquals(3, v.next());
        ProtoException e = assertThrows(ProtoException.class, v::skip);
        assertEquals("data ends inside a field (truncated file?)", e.reason());
    }

    @Test
    void fieldNumberZeroAndWireTypesSixAndSevenAreRefused() throws Exception {
        Wire zero = new Wire(new byte[] {0x00}, 0, 1, 0, "Test");
        assertEquals("field number 0 (not a proto message)", assertThrows(ProtoException.class, zero::next).reason());
        Wire six = new Wire(new byte[] {0x0e, 0x00}, 0, 2, 0, "Test");
        assertEquals(1, six.next());
        assertEquals("invalid wire type 6", assertThrows(ProtoException.class, six::skip).reason());
    }

    @Test
    void aStringIsStrictUtf8AndAsciiIsReadAsItIs() throws Exception {
        byte[] ok = {0x0a, 0x04, 'r', 'o', 'o', 't', 0x12, 0x02, (byte) 0xc3, (byte) 0xa9};
        Wire w = new Wire(ok, 0, ok.length, 0, "Test");
        w.next();
        assertEquals("root", w.string("name"));
        w.next();
        assertEquals("\u00e9", w.repeatedString("op_type"));
        byte[] bad = {0x0a, 0x02, (byte) 0xc3, 0x28};
        Wire v = new Wire(bad, 0, bad.length, 0, "Test");
        v.next();
        assertEquals("string field is not UTF-8", assertThrows(ProtoException.class, () -> v.string("name")).reason());
    }
}
