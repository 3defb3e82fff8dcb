package bufq.dump.file;

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
    public String noun() {
        return switch (this) {
            case VALUES -> "buffer-assignment values file";
            case LIVE_RANGE -> "live-range file";
            case MEMORY_REPORT -> "memory usage report";
            case BUFFER_ASSIGNMENT, OTHER -> "buffer-assignment dump";
        };
    }

    /** The first line a file of this kind starts with, for messages. */
    public String header() {
        return switch (this) {
            case VALUES -> "Used values:";
            case LIVE_RANGE -> "HloLiveRange (max N):";
            case MEMORY_REPORT -> "a memory usage report";
            case BUFFER_ASSIGNMENT, OTHER -> "BufferAssignment:";
        };
    }

    /**
     * The kind of a file name ({@code .gz} allowed). A tag between the kind and {@code .txt} is
     * allowed too ({@code -memory-usage-report.PREFIX.txt}, a truncated or renamed copy): the tag
     * is one word without dots.
     */
    public static FileKind of(String fileName) {
        String n = untagged(stripGz(fileName));
        for (FileKind k : values()) if (k != OTHER && n.endsWith(k.suffix)) return k;
        return OTHER;
    }

    /**
     * The module prefix: the name without its kind suffix, tag and {@code .gz}; what the program
     * name is read from ({@code module_0005.jit_train_step}).
     */
    public static String prefix(String fileName) {
        String n = stripGz(fileName);
        FileKind k = of(n);
        if (k != OTHER) {
            String u = untagged(n);
            return u.substring(0, u.length() - k.suffix.length());
        }
        return n.endsWith(".txt") ? n.substring(0, n.length() - 4) : n;
    }

    /**
     * What the files of one module share: the prefix and the tag ({@code .PREFIX}), so a tagged set
     * joins its own siblings and not the untagged files of the same module beside it.
     */
    public static String setName(String fileName) {
        String n = stripGz(fileName);
        return of(n) == OTHER ? prefix(n) : prefix(n) + tag(n);
    }

    /** {@code .TAG} of {@code NAME-kind.TAG.txt}, or "". */
    private static String tag(String n) {
        String u = untagged(n);
        return u.length() == n.length() ? "" : n.substring(u.length() - 4, n.length() - 4);
    }

    /** {@code NAME-kind.TAG.txt} as {@code NAME-kind.txt}; any other name as it is. */
    private static String untagged(String n) {
        if (!n.endsWith(".txt")) return n;
        for (FileKind k : values()) if (k != OTHER && n.endsWith(k.suffix)) return n;
        int dot = n.lastIndexOf('.', n.length() - 5);
        if (dot < 0 || !n.substring(dot + 1, n.length() - 4).matches("\\w+")) return n;
        String base = n.substring(0, dot);
        for (FileKind k : values()) {
            if (k == OTHER) continue;
            String stem = k.suffix.substring(0, k.suffix.length() - 4);
            if (base.endsWith(stem)) return base + ".txt";
        }
        return n;
    }

    /** The name without a {@code .gz} ending. */
    public static String stripGz(String n) {
        return n.endsWith(".gz") ? n.substring(0, n.length() - 3) : n;
    }
}
