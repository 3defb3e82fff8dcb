package bufq.analysis.oom;

/**
 * The headline phrases that start an out-of-memory message, each naming the family that prints it:
 * what the reader looks for in a paste, and what ends the block of the message before.
 */
final class Headlines {
    private Headlines() {}

    /** Headline phrases, each naming its family; searched in this order. */
    private static final String[][] HEADLINES = {
            {"Out of memory while trying to allocate", "GPU_ASSIGNMENT"},
            {"Out of memory allocating", "CPU"},
            {"Failed to allocate request for", "STREAM_EXECUTOR"},
            {"ran out of memory trying to allocate", "BFC"},
            {"Ran out of memory in memory space", "TPU_COMPILE"},
            {"would exceed memory (size=", "TPU_ALLOCATION"},
            {"Error allocating device buffer", "TPU_BUFFER"},
            {"Error loading program", "TPU_PROGRAM_LOAD"},
            {"Attempting to reserve", "TPU_PROGRAM_LOAD"},
            {"SparseCore Hbm usage", "SPARSECORE"},
            {"Aborting compilation early because", "TPU_COMPILE"},
            {"Ran out of memory on HBM", "TPU_COMPILE"},
    };

    /**
     * Lines that start a message only outside one: a TPU report or a BFC {@code Stats:} tail pasted
     * without its headline. Inside a message they are its rows.
     */
    private static final String[][] HEADLESS = {
            {"Total hbm usage >=", "TPU_COMPILE"},
            {"Program hbm requirement", "TPU_COMPILE"},
            {"Largest program allocations in hbm", "TPU_COMPILE"},
    };

    /** Words one of which every headline phrase holds: most log lines are dismissed on these alone. */
    static final String[] KEYS = {"emory", "llocate", "llocati", "rogram", "eserve", "Hbm", "usage >=", "Stats:"};

    /** The family whose headline phrase {@code line} holds (a headless report's first line too), or null. */
    static Family family(String line) {
        Family f = primary(line);
        if (f != null || line.length() < 6) return f;
        if (line.equals("Stats:")) return Family.BFC;
        if (line.indexOf("usage >=") < 0 && line.indexOf("rogram") < 0) return null;
        for (String[] h : HEADLESS) if (line.startsWith(h[0])) return Family.valueOf(h[1]);
        return null;
    }

    /** Whether {@code line} is a headless report's first line ({@code Stats:}, {@code Total hbm usage >=}, ...). */
    static boolean headless(String line) { return primary(line) == null && family(line) != null; }

    /** The family whose headline phrase proper {@code line} holds, or null. */
    private static Family primary(String line) {
        if (line.length() < 16) return null;
        // every phrase holds one of these ("allocator" does not): most log lines are dismissed after six scans
        if (line.indexOf("emory") < 0 && line.indexOf("llocate") < 0 && line.indexOf("llocati") < 0
                && line.indexOf("rogram") < 0 && line.indexOf("eserve") < 0 && line.indexOf("Hbm") < 0) return null;
        for (String[] h : HEADLINES) if (line.contains(h[0])) return Family.valueOf(h[1]);
        if (line.contains("Attempting to allocate") && line.contains("free")) return Family.TPU_BUFFER;
        return null;
    }

    /** Where in {@code line} the first headline phrase starts (MAX_VALUE: none). */
    static int at(String line) {
        int best = Integer.MAX_VALUE;
        for (String[] h : HEADLINES) {
            int i = line.indexOf(h[0]);
            if (i >= 0) best = Math.min(best, i);
        }
        int i = line.indexOf("Attempting to allocate");
        return i >= 0 ? Math.min(best, i) : best;
    }

    /** Whether a line starts another message (so the block before it ends): a headline proper. */
    static boolean startsMessage(String line) { return primary(line) != null; }
}
