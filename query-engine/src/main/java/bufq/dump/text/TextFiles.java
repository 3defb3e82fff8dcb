package bufq.dump.text;

import bufq.dump.file.DumpFile;
import bufq.dump.file.FileKind;
import bufq.dump.file.Gunzip;
import bufq.dump.file.LoadException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A dump file's content as text: {@link #open} maps a plain file (not read into the heap) or
 * inflates a {@code .gz}, refusing a head that is binary, not UTF-8 or (for a file named as a
 * section) not a dump; {@link #read} decodes a whole file strictly.
 */
final class TextFiles {
    private TextFiles() {}

    /**
     * The file's content for parsing: a plain file is memory-mapped (not read into the heap), a
     * {@code .gz} inflated. A file whose head is binary or not UTF-8 is refused.
     */
    static DumpText open(DumpFile f) throws LoadException {
        String name = f.name();
        Path path = f.path();
        if (f.text() != null) return DumpText.of(f.text());
        // A FIFO would block for ever and a device such as /dev/zero never end: only regular files.
        if (Files.exists(path) && !Files.isRegularFile(path))
            throw new LoadException(name, Files.isDirectory(path) ? "a directory, not a dump file"
                    : "not a regular file (a FIFO, device or socket), not a dump");
        if (Gunzip.isGzip(path)) {
            Gunzip.Inflated got = Gunzip.inflate(path, name, "text", (head, n, whole) -> checkInflatedHead(f, head, n, whole));
            DumpText s = DumpText.of(ByteBuffer.wrap(got.bytes()));
            s.truncated = got.truncated();
            return s;
        }
        try (FileChannel ch = FileChannel.open(path)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) throw new LoadException(name, "file larger than 2 GiB, not supported");
            DumpText s = DumpText.of(ch.map(FileChannel.MapMode.READ_ONLY, 0, size));
            try {
                checkHead(f, s);
            } catch (LoadException e) {
                if (!name.endsWith(".gz")) throw e;
                throw new LoadException(name, e.line(), e.reason() + "; named .gz, but not gzip data (no 0x1f 0x8b at its start)");
            }
            return s;
        } catch (NoSuchFileException e) {
            throw new LoadException(name, "no such file");
        } catch (ClosedByInterruptException e) {
            throw new LoadException(name, "cancelled");   // Ctrl-C in the REPL interrupts the reading thread
        } catch (IOException e) {
            throw new LoadException(name, "cannot read: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }

    /** The first lines (up to 8 KiB) as text, for sniffing; refuses binary and non-UTF-8 heads. */
    static String head(DumpText s) {
        int n = Math.min(s.length(), 8192);
        if (n < s.length()) {
            int cut = n;
            while (cut > 0 && s.at(cut - 1) != '\n') cut--;
            if (cut > 0) n = cut;
        }
        return s.text(0, n);
    }

    private static void checkHead(DumpFile f, DumpText s) throws LoadException {
        int n = Math.min(s.length(), 8192);
        int cut = n;
        if (n < s.length()) while (cut > 0 && s.at(cut - 1) != '\n') cut--;
        decode(f.name(), f.kind(), s.bytes(0, cut));
    }

    /**
     * Judges a {@code .gz} by its first inflated bytes, before the rest is inflated: binary or
     * non-UTF-8 text is refused, and so is a file named as a dump that does not start like one.
     */
    private static void checkInflatedHead(DumpFile f, byte[] head, int n, boolean whole) throws LoadException {
        String name = f.name();
        FileKind kind = f.kind();
        for (int i = 0; i < n; i++) {
            if (head[i] == 0) throw new LoadException(name, lineOf(head, i), "binary file (a NUL byte at column "
                    + columnOf(head, i) + "), not a " + kind.noun());
        }
        int cut = n;
        if (!whole) {
            while (cut > 0 && head[cut - 1] != '\n') cut--;
            if (cut == 0) {   // one long line: cut after its last ASCII byte, so no UTF-8 sequence is split
                cut = n;
                while (cut > 0 && head[cut - 1] < 0) cut--;
            }
        }
        String text = decode(name, kind, Arrays.copyOf(head, cut));
        if (kind == FileKind.BUFFER_ASSIGNMENT || kind == FileKind.VALUES || kind == FileKind.LIVE_RANGE)
            HeadSniff.checkLooksLikeDump(name, kind, text);
    }

    /**
     * The whole file's text (for files of unknown kind, e.g. a log with framed dumps): opened as
     * {@link #open} does (so a cut-off {@code .gz} keeps what it inflated), then decoded whole;
     * non-UTF-8 text is refused.
     */
    static String read(DumpFile f) throws LoadException {
        if (f.text() != null) return f.text();
        DumpText s = open(f);
        return decode(f.name(), f.kind(), s.bytes(0, s.length()));
    }

    /** The text of {@code bytes}; refuses binary or non-UTF-8 bytes, as not a file of {@code kind}. */
    private static String decode(String name, FileKind kind, byte[] bytes) throws LoadException {
        for (int i = 0, n = Math.min(bytes.length, 8192); i < n; i++) {
            if (bytes[i] == 0) throw new LoadException(name, lineOf(bytes, i), "binary file (a NUL byte at column "
                    + columnOf(bytes, i) + "), not a " + kind.noun());
        }
        // Fast path: the JDK's decoder; only text that decoded with replacement characters is
        // checked strictly (a real dump never holds U+FFFD).
        String fast = new String(bytes, StandardCharsets.UTF_8);
        if (fast.indexOf('\uFFFD') < 0) return fast;
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(in, out, true);
        if (!r.isError()) r = StandardCharsets.UTF_8.newDecoder().flush(out);
        if (r.isError()) {
            int at = in.position();
            throw new LoadException(name, lineOf(bytes, at), String.format("not UTF-8 text (byte 0x%02x at column %d), "
                    + "not a %s", bytes[at] & 0xff, columnOf(bytes, at), kind.noun()));
        }
        return out.flip().toString();
    }

    /** 1-based line of byte {@code at}. */
    private static long lineOf(byte[] b, int at) {
        long line = 1;
        for (int i = 0; i < at; i++) if (b[i] == '\n') line++;
        return line;
    }

    /** 1-based column (in bytes) of byte {@code at}. */
    private static int columnOf(byte[] b, int at) {
        int i = at;
        while (i > 0 && b[i - 1] != '\n') i--;
        return at - i + 1;
    }
}
