package bufq.testing;

import bufq.dump.DumpLoader;
import bufq.dump.LoadException;
import bufq.model.HloModule;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Where the tests find the real dumps: {@code ../shared/corpus} next to the checkout. On a user's
 * clone without it the corpus tests skip with a message; CI runs with
 * {@code -Dbufq.requireCorpus=true} ({@code .ci/run}), which turns a missing corpus into a failure.
 */
public final class Corpus {
    private Corpus() {}

    /** The corpus directory (it may not exist). */
    public static Path dir() {
        return Path.of(System.getProperty("bufq.root", ".")).resolve("../shared/corpus").toAbsolutePath().normalize();
    }

    /** {@code path} (a file or directory of the corpus), or the test skips (fails under {@code bufq.requireCorpus}). */
    public static Path require(Path path) {
        if (!Files.exists(path)) {
            String message = "corpus not found at " + path;
            if (Boolean.getBoolean("bufq.requireCorpus")) fail(message + " (bufq.requireCorpus is set)");
            assumeTrue(false, message + "; skipping");
        }
        return path;
    }

    /** {@code dir()/relative}, required as {@link #require(Path)} does. */
    public static Path require(String relative) {
        return require(dir().resolve(relative));
    }

    /**
     * The first file (in name order) directly in the corpus directory {@code relative} whose name
     * ends with {@code nameEnd}: a test about one named dump skips without it, and fails under
     * {@code bufq.requireCorpus} as a missing corpus does.
     */
    public static Path requireFile(String relative, String nameEnd) {
        Path d = require(relative);
        try (Stream<Path> s = Files.list(d)) {
            Path found = s.filter(f -> f.getFileName().toString().endsWith(nameEnd)).sorted().findFirst().orElse(null);
            return require(found != null ? found : d.resolve("*" + nameEnd));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What a sweep over every real dump loads, in name order: each file of {@code public}, each
     * directory of {@code jax-0.10.2}, and each seed in the checkout's {@code examples/seeds}
     * (prose files left out); required as {@link #require(Path)} does.
     */
    public static List<Path> sweepInputs() throws IOException {
        Path corpus = require(dir());
        Path seeds = Path.of(System.getProperty("bufq.root", ".")).resolve("examples/seeds");
        try (Stream<Path> s = Stream.concat(Files.list(corpus.resolve("public")), Stream.concat(
                Files.list(corpus.resolve("jax-0.10.2")).filter(Files::isDirectory), Files.list(seeds)))) {
            return s.filter(p -> !p.getFileName().toString().endsWith(".md")).sorted().toList();
        }
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
