package bufq.shell.fuzz;

/**
 * The seed of the shell's fuzzers, as in the engine's: fixed by default so CI is reproducible,
 * {@code -Dbufq.fuzz.seed=N} replays a failure, {@code =random} explores. A seed runs a fixed
 * number of cases ({@code -Dbufq.fuzz.scale} multiplies it); the clock is only a safety net.
 */
final class Seeds {
    private Seeds() {}

    static final long DEFAULT = 20_261_121L;

    static long seed() {
        String s = System.getProperty("bufq.fuzz.seed", "").trim();
        if (s.isEmpty()) return DEFAULT;
        if (s.equals("random")) return System.nanoTime();
        return Long.parseLong(s);
    }

    /** Cases a fuzz loop runs for one seed: {@code base} times {@code -Dbufq.fuzz.scale} (default 1). */
    static int cases(int base) {
        double scale = Double.parseDouble(System.getProperty("bufq.fuzz.scale", "1"));
        return (int) Math.max(1, Math.round(base * scale));
    }

    /** Wall time a whole fuzz loop may take before it counts as stalled: far above what its cases need. */
    static final long SAFETY_NET_MILLIS = 15 * 60_000L;

    /** Fails a loop started at {@code startMillis} still running past the safety net (a stall, not a normal end). */
    static void safetyNet(long startMillis, int done, int cases, long seed) {
        if (System.currentTimeMillis() - startMillis > SAFETY_NET_MILLIS)
            throw new AssertionError("fuzz loop stalled: " + done + " of " + cases + " cases in "
                    + SAFETY_NET_MILLIS / 60_000 + " minutes, seed " + seed + " (replay with -Dbufq.fuzz.seed=" + seed + ")");
    }
}
