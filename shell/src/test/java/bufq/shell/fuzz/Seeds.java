package bufq.shell.fuzz;

/**
 * The seed of the shell's fuzzers, as in the engine's: fixed by default so CI is reproducible,
 * {@code -Dbufq.fuzz.seed=N} replays a failure, {@code =random} explores.
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
}
