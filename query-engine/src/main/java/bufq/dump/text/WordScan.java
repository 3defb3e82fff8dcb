package bufq.dump.text;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte arrays read eight bytes a turn (SIMD within a register): the batch runs' compiler, C1, does
 * not vectorize a loop of one byte a turn, and the reader searches and checks hundreds of megabytes.
 */
public final class WordScan {
    private WordScan() {}

    /** Eight bytes of a byte array as one little-endian long: {@code (long) LONGS.get(bytes, at)}. */
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long ONES = 0x0101010101010101L, HIGHS = 0x8080808080808080L;

    /** The first index in {@code [from, to)} of {@code a} holding {@code c}, or -1. */
    public static int indexOf(byte[] a, int from, int to, byte c) {
        long pattern = (c & 0xFFL) * ONES;
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long w = (long) LONGS.get(a, i) ^ pattern;
            // A byte of w is zero where c is (the classic has-zero-byte test); the lowest such byte first.
            long zero = (w - ONES) & ~w & HIGHS;
            if (zero != 0) return i + (Long.numberOfTrailingZeros(zero) >>> 3);
        }
        for (; i < to; i++) if (a[i] == c) return i;
        return -1;
    }

    /** Whether {@code a[off, off + n)} is all ASCII. */
    public static boolean ascii(byte[] a, int off, int n) {
        int i = off, to = off + n;
        long high = 0;
        for (; i + 8 <= to; i += 8) high |= (long) LONGS.get(a, i);
        for (; i < to; i++) high |= a[i];
        return (high & HIGHS) == 0;
    }
}
