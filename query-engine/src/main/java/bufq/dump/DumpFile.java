package bufq.dump;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * One file of a module: a real file (read on demand, {@code .gz} inflated) or a frame cut out of
 * stdout-framed text.
 *
 * @param name display name (the path as given, or the frame's header)
 * @param path the file to read, or null for in-memory text
 * @param text the text of an in-memory file, or null
 */
public record DumpFile(String name, FileKind kind, Path path, String text) {

    static DumpFile of(Path path) {
        return new DumpFile(path.toString(), FileKind.of(path.getFileName().toString()), path, null);
    }

    static DumpFile inMemory(String name, String text) {
        return new DumpFile(name, FileKind.of(name), null, text);
    }

    /** The file's text; a file that is not UTF-8 text is refused. */
    String read() throws LoadException {
        if (text != null) return text;
        byte[] bytes;
        try {
            if (path.getFileName().toString().endsWith(".gz")) {
                try (InputStream in = new GZIPInputStream(Files.newInputStream(path))) {
                    bytes = in.readAllBytes();
                }
            } else {
                bytes = Files.readAllBytes(path);
            }
        } catch (NoSuchFileException e) {
            throw new LoadException(name, "no such file");
        } catch (java.util.zip.ZipException e) {
            throw new LoadException(name, "not a valid gzip file (" + e.getMessage() + ")");
        } catch (java.io.EOFException e) {
            throw new LoadException(name, "gzip data ends early (truncated .gz file)");
        } catch (IOException e) {
            throw new LoadException(name, "cannot read: " + e.getMessage());
        }
        return decode(name, bytes);
    }

    static String decode(String name, byte[] bytes) throws LoadException {
        for (int i = 0, n = Math.min(bytes.length, 8192); i < n; i++) {
            if (bytes[i] == 0) throw new LoadException(name, "binary file, not a buffer-assignment dump");
        }
        // Fast path: the JDK's decoder; only text that decoded with replacement characters is
        // checked strictly (a real dump never holds U+FFFD).
        String fast = new String(bytes, StandardCharsets.UTF_8);
        if (fast.indexOf('\uFFFD') < 0) return fast;
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new LoadException(name, "not UTF-8 text, not a buffer-assignment dump");
        }
    }
}
