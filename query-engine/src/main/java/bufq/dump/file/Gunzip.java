package bufq.dump.file;

import bufq.units.Units;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Inflates a {@code .gz} file as a stream, under a bound on how far it expands, so a gzip bomb is
 * refused after a bounded amount of work and memory rather than after inflating it whole:
 * <ul>
 *   <li>the first {@link #HEAD} inflated bytes are handed to a check (binary, not UTF-8, not a
 *       dump) before anything more is inflated;</li>
 *   <li>past {@link #FREE_EXPANSION} bytes, the output may be at most {@link #MAX_RATIO} times the
 *       compressed bytes read so far (dumps compress 5 to 15 times; a bomb about 1,000 times), so a
 *       bomb stops at {@code FREE_EXPANSION} however large the file around it;</li>
 *   <li>nothing inflates past {@link #CEILING} (offsets into the text are ints).</li>
 * </ul>
 * The output is kept in chunks (no doubling array) and copied once into an exact array at the end.
 */
public final class Gunzip {
    private Gunzip() {}

    /**
     * Whether the file is gzip, by its magic bytes ({@code 0x1f 0x8b}) and not by its name: the one
     * test every reader uses (a file's open, the directory walk's sniff, the proto sniff), so a
     * gzipped dump under any name is inflated and a file named {@code .gz} that is not gzip is read
     * as it is. False for a file that cannot be read (its open then says why).
     */
    public static boolean isGzip(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * The file's first {@code n} bytes, inflated when it is gzip ({@link #isGzip}); a cut-off gzip
     * gives what was inflated. The head-of-file sniff of the walk and of protos reads through here.
     */
    public static byte[] head(Path file, int n) throws IOException {
        byte[] b = new byte[n];
        int got = 0;
        boolean gzip = isGzip(file);
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = gzip ? new GZIPInputStream(raw) : raw) {
            while (got < b.length) {
                int r = in.read(b, got, b.length - got);
                if (r < 0) break;
                got += r;
            }
        } catch (EOFException e) {
            if (!gzip) throw e;   // a cut-off .gz: what was inflated is the head
        }
        return java.util.Arrays.copyOf(b, got);
    }

    /** Inflated bytes judged before the rest is inflated. */
    static final int HEAD = 8192;
    /** Inflated size any {@code .gz} may reach whatever its ratio: small files may compress any way. */
    static final long FREE_EXPANSION = 64L << 20;
    /** Most times its compressed bytes a {@code .gz} may inflate to, past {@link #FREE_EXPANSION}. */
    static final int MAX_RATIO = 50;
    /** Largest inflated text bufq holds (an array's size). */
    static final long CEILING = Integer.MAX_VALUE - 16;

    /** Looks at the first inflated bytes (all of them when the file is shorter); throws to refuse the file. */
    public interface HeadCheck {
        void check(byte[] head, int length, boolean whole) throws LoadException;
    }

    /** The inflated bytes, and whether the gzip data ended early (a cut-off download: what was inflated is kept). */
    public record Inflated(byte[] bytes, boolean truncated) {}

    /** Inflates {@code path}, named {@code shown} in messages; {@code noun} says what the content is ("bytes", "text"). */
    public static Inflated inflate(Path path, String shown, String noun, HeadCheck headCheck) throws LoadException {
        Chunks out = new Chunks(sizeHint(path));
        boolean truncated = false;
        try (Counting raw = new Counting(Files.newInputStream(path));
             InputStream in = new GZIPInputStream(raw, 1 << 16)) {
            byte[] buf = new byte[1 << 16];
            boolean headChecked = false;
            try {
                for (int r; (r = in.read(buf)) >= 0; ) {
                    out.write(buf, r);
                    long n = out.size;
                    if (!headChecked && n >= HEAD) {
                        headChecked = true;
                        headCheck.check(out.head(HEAD), HEAD, false);
                    }
                    if (n > FREE_EXPANSION && n > MAX_RATIO * raw.count) throw bomb(shown, n, raw.count);
                    if (n > CEILING) throw new LoadException(shown, "inflates to more than 2 GiB, not supported");
                }
            } catch (EOFException e) {
                if (out.size == 0) throw new LoadException(shown, "gzip data ends before any " + noun + " (truncated .gz file)");
                truncated = true;
            }
            if (!headChecked) headCheck.check(out.head(HEAD), (int) Math.min(HEAD, out.size), true);
            return new Inflated(out.toArray(), truncated);
        } catch (NoSuchFileException e) {
            throw new LoadException(shown, "no such file");
        } catch (EOFException e) {
            // Cut inside the gzip header: nothing was inflated.
            throw new LoadException(shown, "gzip data ends before any " + noun + " (truncated .gz file)");
        } catch (ZipException e) {
            throw new LoadException(shown, "not a valid gzip file (" + e.getMessage() + ")");
        } catch (ClosedByInterruptException e) {
            throw new LoadException(shown, "cancelled");   // Ctrl-C in the REPL interrupts the reading thread
        } catch (IOException e) {
            throw new LoadException(shown, "cannot read: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        } catch (OutOfMemoryError e) {
            out.drop();
            throw new LoadException(shown, "inflated .gz does not fit in memory");
        }
    }

    private static LoadException bomb(String shown, long inflated, long compressed) {
        return new LoadException(shown, "inflates more than " + MAX_RATIO + " times: its first " + Units.human(compressed)
                + " gave " + Units.human(inflated) + " (dumps compress 5 to 15 times; past " + Units.human(FREE_EXPANSION)
                + " a .gz may not inflate more than " + MAX_RATIO + " times): refused as a gzip bomb");
    }

    /**
     * The inflated size the gzip trailer claims (modulo 4 GiB, last member only), capped at
     * {@link #FREE_EXPANSION}: a first chunk that usually holds the whole text, so a common dump
     * is inflated into one exact array; a lying trailer costs at most the free expansion.
     */
    private static int sizeHint(Path path) {
        try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "r")) {
            long len = f.length();
            if (len < 18) return 1 << 16;
            f.seek(len - 4);
            long isize = Integer.toUnsignedLong(Integer.reverseBytes(f.readInt()));
            return (int) Math.max(1 << 16, Math.min(isize, FREE_EXPANSION));
        } catch (IOException | UnsupportedOperationException e) {
            return 1 << 16;   // the stream will say what is wrong
        }
    }

    /** The bytes read from the file so far. */
    private static final class Counting extends FilterInputStream {
        long count;
        Counting(InputStream in) { super(in); }
        @Override public int read() throws IOException {
            int b = super.read();
            if (b >= 0) count++;
            return b;
        }
        @Override public int read(byte[] b, int off, int len) throws IOException {
            int r = super.read(b, off, len);
            if (r > 0) count += r;
            return r;
        }
    }

    /** Output in chunks of growing size: memory stays near the inflated size, with no copy until the end. */
    private static final class Chunks {
        private final List<byte[]> full = new ArrayList<>();
        private byte[] cur;
        private int at;
        long size;

        Chunks(int first) { cur = new byte[first]; }

        void write(byte[] b, int len) {
            int off = 0;
            while (len > 0) {
                if (at == cur.length) {
                    full.add(cur);
                    cur = new byte[(int) Math.min(FREE_EXPANSION, Math.max(1 << 20, size / 4))];
                    at = 0;
                }
                int n = Math.min(len, cur.length - at);
                System.arraycopy(b, off, cur, at, n);
                at += n;
                off += n;
                len -= n;
                size += n;
            }
        }

        /** The first {@code n} bytes (fewer when there are fewer). */
        byte[] head(int n) {
            byte[] h = new byte[(int) Math.min(n, size)];
            int got = 0;
            for (int i = 0; got < h.length; i++) {
                byte[] c = i < full.size() ? full.get(i) : cur;
                int k = Math.min(h.length - got, i < full.size() ? c.length : at);
                System.arraycopy(c, 0, h, got, k);
                got += k;
            }
            return h;
        }

        byte[] toArray() {
            if (full.isEmpty() && at == cur.length) return cur;
            byte[] a = new byte[(int) size];
            int got = 0;
            for (byte[] c : full) {
                System.arraycopy(c, 0, a, got, c.length);
                got += c.length;
            }
            System.arraycopy(cur, 0, a, got, at);
            full.clear();
            cur = null;
            return a;
        }

        void drop() {
            full.clear();
            cur = null;
        }
    }
}
