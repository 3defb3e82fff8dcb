package bufq.dump;

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
 * One file of a module: a real file (read on demand, inflated when gzip by its magic bytes) or a frame cut out of
 * stdout-framed text.
 *
 * @param name      display name (the path as given, or {@code LOG#FRAME} for a frame)
 * @param path      the file to read, or null for in-memory text
 * @param text      the text of an in-memory file, or null
 * @param origin    the file warnings name (the log a frame was cut from)
 * @param firstLine line of {@code origin} where this file's text starts (1, or after a frame header)
 */
public record DumpFile(String name, FileKind kind, Path path, String text, String origin, long firstLine) {

    static DumpFile of(Path path) {
        return of(path, path.toString());
    }

    /** The file at {@code path}, named {@code shown} (the path as the user spelled it) in every message. */
    static DumpFile of(Path path, String shown) {
        return new DumpFile(shown, FileKind.of(path.getFileName().toString()), path, null, shown, 1);
    }

    static DumpFile inMemory(String name, String text) {
        return new DumpFile(name, FileKind.of(name), null, text, name, 1);
    }

    /** A frame named {@code frame} cut from {@code log}, starting at line {@code firstLine} of the log. */
    static DumpFile frame(String log, String frame, String text, long firstLine) {
        return new DumpFile(log + "#" + frame, FileKind.of(frame), null, text, log, firstLine);
    }

    /**
     * The file's content for parsing: a plain file is memory-mapped (not read into the heap), a
     * {@code .gz} inflated. A file whose head is binary or not UTF-8 is refused.
     */
    DumpText open() throws LoadException {
        if (text != null) return DumpText.of(text);
        // A FIFO would block for ever and a device such as /dev/zero never end: only regular files.
        if (Files.exists(path) && !Files.isRegularFile(path))
            throw new LoadException(name, Files.isDirectory(path) ? "a directory, not a dump file"
                    : "not a regular file (a FIFO, device or socket), not a dump");
        if (Gunzip.isGzip(path)) {
            Gunzip.Inflated got = Gunzip.inflate(path, name, "text", this::checkInflatedHead);
            DumpText s = DumpText.of(ByteBuffer.wrap(got.bytes()));
            s.truncated = got.truncated();
            return s;
        }
        try (FileChannel ch = FileChannel.open(path)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) throw new LoadException(name, "file larger than 2 GiB, not supported");
            DumpText s = DumpText.of(ch.map(FileChannel.MapMode.READ_ONLY, 0, size));
            try {
                checkHead(s);
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

    private void checkHead(DumpText s) throws LoadException {
        int n = Math.min(s.length(), 8192);
        int cut = n;
        if (n < s.length()) while (cut > 0 && s.at(cut - 1) != '\n') cut--;
        decode(name, kind, s.bytes(0, cut));
    }

    /**
     * Judges a {@code .gz} by its first inflated bytes, before the rest is inflated: binary or
     * non-UTF-8 text is refused, and so is a file named as a dump that does not start like one.
     */
    private void checkInflatedHead(byte[] head, int n, boolean whole) throws LoadException {
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
     * {@link #open()} does (so a cut-off {@code .gz} keeps what it inflated), then decoded whole;
     * non-UTF-8 text is refused.
     */
    String read() throws LoadException {
        if (text != null) return text;
        DumpText s = open();
        return decode(name, kind, s.bytes(0, s.length()));
    }

    /** The text of {@code bytes}; refuses binary or non-UTF-8 bytes, as not a file of {@code kind}. */
    static String decode(String name, FileKind kind, byte[] bytes) throws LoadException {
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
