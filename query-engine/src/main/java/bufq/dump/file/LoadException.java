package bufq.dump.file;

/**
 * A dump that cannot be loaded at all: not a dump, unreadable, or no dumps in a directory.
 * {@link #getMessage()} is one line: {@code FILE:LINE: reason} or {@code FILE: reason}.
 */
public final class LoadException extends Exception {
    private final String file;
    private final long line;
    private final String reason;

    public LoadException(String file, long line, String reason) {
        super(render(OneLine.of(file), line, OneLine.of(reason)));
        this.file = OneLine.of(file);
        this.line = line;
        this.reason = OneLine.of(reason);
    }

    public LoadException(String file, String reason) {
        this(file, 0, reason);
    }

    private static String render(String file, long line, String reason) {
        if (file == null || file.isEmpty()) return reason;
        return line > 0 ? file + ":" + line + ": " + reason : file + ": " + reason;
    }

    /** The file (or directory) concerned, as the user named it. */
    public String file() { return file; }
    /** 1-based line, or 0 when the problem is the file as a whole. */
    public long line() { return line; }
    /** The reason without the location. */
    public String reason() { return reason; }
}
