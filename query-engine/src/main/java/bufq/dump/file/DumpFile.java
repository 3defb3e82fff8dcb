package bufq.dump.file;

import java.nio.file.Path;

/**
 * One file of a module: a real file (read on demand, inflated when gzip by its magic bytes) or a frame cut out of
 * stdout-framed text. The text reader opens it ({@code bufq.dump.text.TextFiles}); the proto reader reads its bytes.
 *
 * @param name      display name (the path as given, or {@code LOG#FRAME} for a frame)
 * @param path      the file to read, or null for in-memory text
 * @param text      the text of an in-memory file, or null
 * @param origin    the file warnings name (the log a frame was cut from)
 * @param firstLine line of {@code origin} where this file's text starts (1, or after a frame header)
 */
public record DumpFile(String name, FileKind kind, Path path, String text, String origin, long firstLine) {

    public static DumpFile of(Path path) {
        return of(path, path.toString());
    }

    /** The file at {@code path}, named {@code shown} (the path as the user spelled it) in every message. */
    public static DumpFile of(Path path, String shown) {
        return new DumpFile(shown, FileKind.of(path.getFileName().toString()), path, null, shown, 1);
    }

    public static DumpFile inMemory(String name, String text) {
        return new DumpFile(name, FileKind.of(name), null, text, name, 1);
    }

    /** A frame named {@code frame} cut from {@code log}, starting at line {@code firstLine} of the log. */
    public static DumpFile frame(String log, String frame, String text, long firstLine) {
        return new DumpFile(log + "#" + frame, FileKind.of(frame), null, text, log, firstLine);
    }
}
