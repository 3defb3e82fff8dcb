package bufq.model;

/** Something the reader skipped or doubted: file, 1-based line (0 when not tied to a line), message. */
public record LoadWarning(String file, long line, String message) {
    @Override public String toString() {
        return line > 0 ? file + ":" + line + ": " + message : file + ": " + message;
    }
}
