package bufq.dump;

/** The kinds of file XLA writes per module, by name suffix; {@link #OTHER} is judged by content. */
public enum FileKind {
    VALUES("-buffer-assignment-values.txt"),
    BUFFER_ASSIGNMENT("-buffer-assignment.txt"),
    LIVE_RANGE("-live-range.txt"),
    MEMORY_REPORT("-memory-usage-report.txt"),
    OTHER("");

    final String suffix;

    FileKind(String suffix) { this.suffix = suffix; }

    /** What a file of this kind is, for messages: "not a " + noun. */
    String noun() {
        return switch (this) {
            case VALUES -> "buffer-assignment values file";
            case LIVE_RANGE -> "live-range file";
            case MEMORY_REPORT -> "memory usage report";
            case BUFFER_ASSIGNMENT, OTHER -> "buffer-assignment dump";
        };
    }

    /** The first line a file of this kind starts with, for messages. */
    String header() {
        return switch (this) {
            case VALUES -> "Used values:";
            case LIVE_RANGE -> "HloLiveRange (max N):";
            case MEMORY_REPORT -> "a memory usage report";
            case BUFFER_ASSIGNMENT, OTHER -> "BufferAssignment:";
        };
    }

    /** The kind of a file name ({@code .gz} allowed). */
    public static FileKind of(String fileName) {
        String n = stripGz(fileName);
        for (FileKind k : values()) if (k != OTHER && n.endsWith(k.suffix)) return k;
        return OTHER;
    }

    /** The module prefix: the name without its kind suffix (and {@code .gz}). */
    public static String prefix(String fileName) {
        String n = stripGz(fileName);
        FileKind k = of(n);
        if (k != OTHER) return n.substring(0, n.length() - k.suffix.length());
        return n.endsWith(".txt") ? n.substring(0, n.length() - 4) : n;
    }

    static String stripGz(String n) {
        return n.endsWith(".gz") ? n.substring(0, n.length() - 3) : n;
    }
}
