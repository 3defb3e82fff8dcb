package bufq.oom;

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
    };

    /** Words one of which every headline phrase holds: most log lines are dismissed on these alone. */
    static final String[] KEYS = {"emory", "llocate", "llocati", "rogram", "eserve", "Hbm"};

    /** The family whose headline phrase {@code line} holds, or null. */
    static Family family(String line) {
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

    /** Whether a line starts another message (so the block before it ends). */
    static boolean startsMessage(String line) { return family(line) != null; }
}
