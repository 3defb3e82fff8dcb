package bufq.testing;

import bufq.dump.DumpLoader;
import bufq.dump.file.LoadException;
import bufq.model.HloModule;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Where the tests find the real dumps: {@code ../shared/corpus} next to the checkout, the one place
 * a test names it ({@code CorpusAccessTest} holds this). A part of the corpus the checkout carries a
 * copy of ({@link #copy()}: the same relative paths) is read from that copy on a clone without the
 * corpus; the rest skips with a message there. CI runs with {@code -Dbufq.requireCorpus=true}
 * ({@code .ci/run}), which turns a missing corpus into a failure.
 */
public final class Corpus {
    private Corpus() {}

    /**
     * How many times a test has asked for the corpus in this JVM: {@link CorpusUseRecorder} notes
     * the tests during which it moved, so CI's run with the corpus runs those tests only.
     */
    private static final AtomicLong ASKED = new AtomicLong();

    /**
     * How many times a test has asked for the corpus so far: every method but {@link #copy()} counts,
     * except an answer from a {@link #WHOLE} folder of the copy, which is what the corpus would have
     * answered, byte for byte and file for file.
     */
    public static long asked() {
        return ASKED.get();
    }

    /**
     * The folders of the copy that hold all of their original, files and folders
     * ({@code CorpusCopyTest} holds this wherever the corpus is). A test that reads only these reads
     * on a clone what it reads with the corpus, so CI's second run, with the corpus, need not run it
     * again. The other folders of the copy hold part of theirs ({@code public}, {@code oom-cpu/pair/dump}).
     */
    public static final Set<String> WHOLE = Set.of("jax-0.10.2/transformer-2layer", "jax-0.10.2/bf16-mlp", "jax-0.10.2/rnn-scan",
            "jax-0.10.2/cnn", "jax-0.10.2/train", "jax-0.10.2/multi-module-dir-analysis-off", "jax-0.10.2/pairs", "jax-0.10.2-proto/bf16-mlp",
            "jax-0.10.2-proto/transformer-2layer", "jax-0.10.2-proto/profile", "jax-0.10.2-proto/cnn",
            "jax-0.10.2/series/mlp-b8", "jax-0.10.2/series/mlp-b16", "jax-0.10.2/series/mlp-b32", "jax-0.10.2/series/mlp-b64",
            "tpu/tp-mlp", "tpu/oom/pallas-vmem");

    /** The corpus as the README and the docs name it, relative to the checkout. */
    public static final String RELATIVE = "../shared/corpus";

    private static Path root() {
        return Path.of(System.getProperty("bufq.root", "."));
    }

    /** The corpus directory (it may not exist). */
    public static Path dir() {
        ASKED.incrementAndGet();
        return corpus();
    }

    private static Path corpus() {
        return root().resolve(RELATIVE).toAbsolutePath().normalize();
    }

    /**
     * The checkout's own small copy of part of the corpus, byte for byte and at the same relative
     * paths (its README.md says where each file comes from), so a clone without the corpus still
     * runs the tests about those dumps.
     */
    public static Path copy() {
        return root().resolve("query-engine/src/test/resources/corpus").toAbsolutePath().normalize();
    }

    /**
     * {@code path} (a file or directory of the corpus); with the corpus absent, its copy under
     * {@link #copy()} if the checkout carries one; else the test skips (fails under
     * {@code bufq.requireCorpus}). The corpus directory and its top folders ({@code public},
     * {@code jax-0.10.2}, ...) have no copy: what walks all of one needs the corpus. An answer from
     * a {@link #WHOLE} folder of the copy is not counted as asking for the corpus.
     */
    public static Path require(Path path) {
        Path copied = Files.exists(path) ? null : copyOf(path);
        if (copied != null && copied.getNameCount() - copy().getNameCount() >= 2) {
            if (!whole(copied)) ASKED.incrementAndGet();
            return copied;
        }
        ASKED.incrementAndGet();
        return Files.exists(path) ? path : missing(path);
    }

    /** {@code dir()/relative}, required as {@link #require(Path)} does. */
    public static Path require(String relative) {
        return require(corpus().resolve(relative));
    }

    /**
     * The corpus folder {@code relative} when the corpus is here; else the part of it the checkout
     * copies ({@link #copy()}), for a test that holds each file of a folder to a rule and is worth
     * running on fewer of them; else missing as {@link #require(Path)} says.
     */
    public static Path requireSome(String relative) {
        Path d = corpus().resolve(relative);
        Path copied = Files.exists(d) ? null : copyOf(d);
        if (copied == null || !whole(copied)) ASKED.incrementAndGet();
        if (Files.exists(d)) return d;
        return copied != null ? copied : missing(d);
    }

    /**
     * The first file (in name order) directly in the corpus directory {@code relative} whose name
     * ends with {@code nameEnd} (with the corpus absent, in its copy): a test about one named dump
     * skips without it, and fails under {@code bufq.requireCorpus} as a missing corpus does.
     */
    public static Path requireFile(String relative, String nameEnd) {
        Path d = corpus().resolve(relative);
        if (!Files.isDirectory(d)) d = copyOf(d);
        if (d == null || !whole(d)) ASKED.incrementAndGet();
        if (d == null) return missing(corpus().resolve(relative));
        try (Stream<Path> s = Files.list(d)) {
            Path found = s.filter(f -> f.getFileName().toString().endsWith(nameEnd)).sorted().findFirst().orElse(null);
            return found != null ? found : missing(corpus().resolve(relative).resolve("*" + nameEnd));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether {@code copied}, a path under {@link #copy()}, lies in a {@link #WHOLE} folder. */
    private static boolean whole(Path copied) {
        Path rel = copy().relativize(copied.toAbsolutePath().normalize());
        for (String w : WHOLE) if (rel.startsWith(w)) return true;
        return false;
    }

    /** The copy of the corpus path {@code path} under {@link #copy()}, or null if the checkout has none. */
    private static Path copyOf(Path path) {
        Path p = path.toAbsolutePath().normalize(), corpus = corpus();
        if (!p.startsWith(corpus) || p.equals(corpus)) return null;
        Path copied = copy().resolve(corpus.relativize(p).toString());
        return Files.exists(copied) ? copied : null;
    }

    /** Test classes that said they skip for want of the corpus. */
    private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

    private static Path missing(Path path) {
        String message = "corpus not found at " + path;
        if (Boolean.getBoolean("bufq.requireCorpus")) fail(message + " (bufq.requireCorpus is set)");
        // Surefire puts a skip's reason in its XML only: say it on the console too, once per test class
        String test = StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
                .filter(c -> !c.equals(Corpus.class.getName()) && !c.startsWith(Corpus.class.getName() + "$") && !c.startsWith("org.junit.") && !c.startsWith("java."))
                .findFirst().orElse("a test"));
        if (SAID.add(test)) System.out.println("[corpus] " + test + ": " + message + "; skipping (see docs/testing.md)");
        assumeTrue(false, message + "; skipping");
        throw new AssertionError("unreachable");
    }

    /**
     * What a sweep over every real dump loads, in name order: each file of {@code public}, each
     * directory of {@code jax-0.10.2} and {@code jax-0.10.2-proto}, each {@code dump} folder under
     * {@code tpu} and {@code oom-cpu} (the real TPU compiles and out-of-memory runs), and each seed in
     * the checkout's {@code examples/seeds} (prose files left out); required as {@link #require(Path)}
     * does.
     */
    public static List<Path> sweepInputs() throws IOException {
        Path corpus = require(dir());
        Path seeds = Path.of(System.getProperty("bufq.root", ".")).resolve("examples/seeds");
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(corpus.resolve("public"))) { s.forEach(out::add); }
        for (String era : List.of("jax-0.10.2", "jax-0.10.2-proto")) {
            if (!Files.isDirectory(corpus.resolve(era))) continue;
            try (Stream<Path> s = Files.list(corpus.resolve(era))) { s.filter(Files::isDirectory).forEach(out::add); }
        }
        for (String runs : List.of("tpu", "oom-cpu")) {
            if (!Files.isDirectory(corpus.resolve(runs))) continue;
            try (Stream<Path> s = Files.walk(corpus.resolve(runs))) {
                s.filter(d -> Files.isDirectory(d) && d.getFileName().toString().equals("dump")).forEach(out::add);
            }
        }
        if (Files.isDirectory(seeds)) {
            try (Stream<Path> s = Files.list(seeds)) { s.forEach(out::add); }
        }
        return out.stream().filter(p -> !p.getFileName().toString().endsWith(".md")).sorted().toList();
    }

    /** A check of the modules one sweep input loads into. */
    public interface ModulesCheck {
        void check(Path input, List<HloModule> modules) throws Exception;
    }

    /**
     * One dynamic test per {@link #sweepInputs() sweep input}, named by its path under the corpus's
     * parent, that runs {@code check} on the modules it loads; an input the reader refuses is
     * skipped (the reader's own tests cover refusals).
     */
    public static Stream<DynamicTest> sweep(ModulesCheck check) throws IOException {
        Path corpus = dir();
        return sweepInputs().stream().map(p -> DynamicTest.dynamicTest(corpus.getParent().relativize(p).toString(), () -> {
            List<HloModule> modules;
            try {
                modules = DumpLoader.load(List.of(p));
            } catch (LoadException e) {
                return;
            }
            check.check(p, modules);
        }));
    }
}
