package bufq.dump.text;

import bufq.dump.text.Interner;
import bufq.dump.text.WordScan;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The text of one dump file, either a String (in-memory text, frames) or bytes (a memory-mapped
 * file, or an inflated {@code .gz}). Bytes are decoded a region at a time, just before that region
 * is parsed, so a large dump never sits in the heap whole, let alone twice (bytes and String).
 * Offsets are in bytes or chars; cuts are always made at ASCII newlines, so UTF-8 is never split.
 */
abstract class DumpText {
    /** Target size of a parallel chunk of the Used values section ({@link TextReader} cuts there). */
    static final int CHUNK = 1 << 20;

    /** The content ends early (a cut-off .gz): the last region is marked truncated. */
    boolean truncated;

    abstract int length();

    /** The character or byte at {@code i} (only compared against ASCII). */
    abstract int at(int i);

    /** The decoded text of {@code [from, to)}. */
    abstract String text(int from, int to);

    /** The bytes of {@code [from, to)} (of a text held as characters: each char's low byte). */
    byte[] bytes(int from, int to) {
        byte[] out = new byte[to - from];
        for (int i = from; i < to; i++) out[i - from] = (byte) at(i);
        return out;
    }

    /** How many times the ASCII character {@code c} occurs in {@code [from, to)}. */
    long count(char c, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) if (at(i) == c) n++;
        return n;
    }

    /** First {@code lit} (ASCII) at or after {@code from}, or -1. */
    int indexOf(String lit, int from) {
        int n = lit.length(), last = length() - n;
        int c0 = lit.charAt(0);
        for (int i = Math.max(0, from); i <= last; i++) {
            if (at(i) != c0) continue;
            int k = 1;
            while (k < n && at(i + k) == lit.charAt(k)) k++;
            if (k == n) return i;
        }
        return -1;
    }

    /** Last {@code lit} (ASCII) starting at or after {@code floor}, or -1. */
    int lastIndexOf(String lit, int floor) {
        int n = lit.length();
        int c0 = lit.charAt(0);
        for (int i = length() - n; i >= Math.max(0, floor); i--) {
            if (at(i) != c0) continue;
            int k = 1;
            while (k < n && at(i + k) == lit.charAt(k)) k++;
            if (k == n) return i;
        }
        return -1;
    }

    boolean startsWith(String lit, int at) {
        if (at + lit.length() > length()) return false;
        for (int k = 0; k < lit.length(); k++) if (at(at + k) != lit.charAt(k)) return false;
        return true;
    }

    static DumpText of(String s) { return new CharText(s); }
    static DumpText of(ByteBuffer b) { return new ByteText(b); }

    static final class CharText extends DumpText {
        final String s;
        CharText(String s) { this.s = s; }
        @Override int length() { return s.length(); }
        @Override int at(int i) { return s.charAt(i); }
        @Override String text(int from, int to) { return from == 0 && to == s.length() ? s : s.substring(from, to); }
        @Override int indexOf(String lit, int from) { return s.indexOf(lit, from); }
        @Override int lastIndexOf(String lit, int floor) {
            int i = s.lastIndexOf(lit);
            return i >= floor ? i : -1;
        }
    }

    static final class ByteText extends DumpText {
        final ByteBuffer b;
        ByteText(ByteBuffer b) { this.b = b; }
        @Override int length() { return b.limit(); }
        @Override int at(int i) { return b.get(i); }
        // One bulk copy: a get(i) per byte of the 8 KiB heads of 8,000 files was a sixth of a
        // directory's read without the optimizing compiler.
        @Override byte[] bytes(int from, int to) {
            byte[] out = new byte[to - from];
            b.get(from, out, 0, out.length);
            return out;
        }
        // Searches copy blocks out of the (mapped) buffer: far faster than one get(i) per byte.
        private static final int BLOCK = 1 << 16;
        private static final int CHUNK_LIMIT = CHUNK;
        private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[0]);

        /**
         * Looks for one byte of {@code lit} (its second when it starts a line: a newline is on every
         * line) eight bytes at a time, then compares the whole literal where it occurs. Without
         * the batch runs' optimizing compiler a loop of one byte per turn read 100 MB in 0.65 s
         * (the search for a section a four-file set does not have); eight at a time, 0.07 s.
         */
        @Override int indexOf(String lit, int from) {
            int n = lit.length(), len = length();
            int anchor = n > 1 && lit.charAt(0) == '\n' ? 1 : 0;
            byte c = (byte) lit.charAt(anchor);
            int block = 1 << 12;   // small first: the next cut is usually near
            // The copy buffer grows with the block: a fresh 64 KiB for every search, most of which end
            // in the first 4 KiB, was most of the time of a walk from one line to the next.
            byte[] buf = new byte[block + n];
            for (int start = Math.max(0, from); start <= len - n; start += block, block = Math.min(BLOCK, block * 2)) {
                if (buf.length < block + n) buf = new byte[block + n];
                // The block's candidates start in [start, start + block); their bytes reach n - 1 further.
                int count = Math.min(block + n - 1, len - start);
                b.get(start, buf, 0, count);
                int last = Math.min(count - n, block - 1);
                // Candidates k in [0, last], where the anchor byte is at k + anchor.
                for (int k = 0; k <= last; k++) {
                    int at = WordScan.indexOf(buf, k + anchor, last + anchor + 1, c);
                    if (at < 0) break;
                    k = at - anchor;
                    if (matches(buf, k, lit)) return start + k;
                }
            }
            return -1;
        }

        @Override int lastIndexOf(String lit, int floor) {
            int n = lit.length(), len = length();
            byte[] buf = new byte[BLOCK + n];
            floor = Math.max(0, floor);
            for (int end = len; end - n >= floor; end -= BLOCK) {
                int start = Math.max(floor, end - BLOCK - n + 1);
                int count = end - start;
                b.get(start, buf, 0, count);
                int c0 = lit.charAt(0), c1 = n > 1 ? lit.charAt(1) : -1;
                for (int i = count - n; i >= 0; i--) {
                    if (buf[i] == c0 && (n == 1 || buf[i + 1] == c1) && matches(buf, i, lit)) return start + i;
                }
                if (start == floor) break;
            }
            return -1;
        }

        @Override long count(char c, int from, int to) {
            byte[] buf = new byte[BLOCK];
            long n = 0;
            for (int start = from; start < to; start += BLOCK) {
                int len = Math.min(BLOCK, to - start);
                b.get(start, buf, 0, len);
                for (int i = 0; i < len; i++) if (buf[i] == c) n++;
            }
            return n;
        }

        private static boolean matches(byte[] buf, int i, String lit) {
            for (int k = 0; k < lit.length(); k++) if (buf[i + k] != lit.charAt(k)) return false;
            return true;
        }

        @Override String text(int from, int to) {
            return text(from, to, null);
        }

        /**
         * The decoded text of {@code [from, to)}; when it is all ASCII and {@code in} is given, tells
         * {@code in} where its bytes are (valid until this thread's next call), for a faster read of
         * its names.
         */
        String text(int from, int to, Interner in) {
            int n = to - from;
            byte[] a;
            int off;
            if (b.hasArray()) {
                a = b.array();
                off = b.arrayOffset() + from;
            } else {
                // Regions are about a megabyte each: one copy buffer per thread, not a fresh one per region.
                a = SCRATCH.get();
                if (a.length < n) SCRATCH.set(a = new byte[Math.max(n, a.length * 2)]);
                b.get(from, a, 0, n);
                off = 0;
                if (a.length > 4 * CHUNK_LIMIT) SCRATCH.set(new byte[0]);   // do not keep a big file's worth
            }
            if (WordScan.ascii(a, off, n)) {
                // One copy, no decoding: ASCII is Latin-1 byte for byte (the UTF-8 decoder first
                // scanned every byte a second time, one per turn without the optimizing compiler).
                String s = new String(a, off, n, StandardCharsets.ISO_8859_1);
                if (in != null) in.asciiRegion(s, a, off);
                return s;
            }
            return new String(a, off, n, StandardCharsets.UTF_8);
        }
    }
}
