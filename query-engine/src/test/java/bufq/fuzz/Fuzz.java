package bufq.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the fuzzers share: the seed ({@code -Dbufq.fuzz.seed=N} replays a run, {@code =random} picks
 * a fresh one), the number of cases per seed, the safety net, running one case under a time bound,
 * and where failing inputs are kept for a human to look at.
 */
public final class Fuzz {
    private Fuzz() {}

    /** Fixed by default so CI is reproducible; every failure message names it. */
    static final long DEFAULT_SEED = 20_261_121L;

    public static long seed() {
        String s = System.getProperty("bufq.fuzz.seed", "");
        if (s.isBlank()) return DEFAULT_SEED;
        if (s.equals("random")) return System.nanoTime();
        return Long.parseLong(s.trim());
    }

    /**
     * Cases a fuzz loop runs for one seed: {@code base}, times {@code -Dbufq.fuzz.scale} (default 1).
     * The count decides how much runs, never the clock, so a seed always runs the same cases.
     */
    public static int cases(int base) {
        double scale = Double.parseDouble(System.getProperty("bufq.fuzz.scale", "1"));
        return (int) Math.max(1, Math.round(base * scale));
    }

    /** Wall time a whole fuzz loop may take before it counts as stalled: far above what its cases need. */
    static final long SAFETY_NET_MILLIS = 15 * 60_000L;

    /** Fails a loop started at {@code startMillis} that is still running past the safety net (a stall, not a normal end). */
    static void safetyNet(long startMillis, int done, int cases, long seed) {
        if (System.currentTimeMillis() - startMillis > SAFETY_NET_MILLIS)
            throw new AssertionError("fuzz loop stalled: " + done + " of " + cases + " cases in "
                    + SAFETY_NET_MILLIS / 60_000 + " minutes, " + replay(seed));
    }

    static String replay(long seed) {
        return "seed " + seed + " (replay: mvn -o test -Dtest=... -Dbufq.fuzz.seed=" + seed + ")";
    }

    /** The checkout root (where {@code examples/} lives). */
    static Path root() {
        Path r = Path.of(System.getProperty("bufq.root", ".."));
        return Files.isDirectory(r.resolve("examples")) ? r : Path.of("..");
    }

    /** Keeps a failing input under {@code target/fuzz-failures} and returns where. */
    static Path keep(String name, byte[] input) {
        try {
            Path dir = Path.of("target", "fuzz-failures");
            Files.createDirectories(dir);
            Path p = dir.resolve(name.replaceAll("[^A-Za-z0-9._-]", "_"));
            Files.write(p, input);
            return p.toAbsolutePath();
        } catch (IOException e) {
            return null;
        }
    }

    /** The outcome of a bounded call: its value, or what it threw (never a timeout: that fails). */
    record Outcome<T>(T value, Throwable thrown) {}

    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fuzz-case");
        t.setDaemon(true);   // a hung case must not keep the test JVM alive
        return t;
    });

    /**
     * Runs {@code body} on another thread and waits at most {@code millis}. A case that takes
     * longer is a hang: the caller gets an AssertionError naming {@code what}.
     */
    static <T> Outcome<T> bounded(String what, long millis, Callable<T> body) {
        Future<T> f = POOL.submit(body);
        try {
            return new Outcome<>(f.get(millis, TimeUnit.MILLISECONDS), null);
        } catch (ExecutionException e) {
            return new Outcome<>(null, e.getCause());
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("no answer within " + millis + " ms (a hang?): " + what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + what);
        }
    }
}
