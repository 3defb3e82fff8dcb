package bufq.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * CI's run with the corpus runs the tests {@link CorpusUseRecorder} noted on the bare clone and no
 * other: a test it missed would lose its corpus run. Runs fixture classes through the launcher.
 */
class CorpusUseRecorderTest {
    /** One method asks, one does not, one asks for the checkout's copy only (the same in both runs). */
    static class AsksInOneMethod {
        @Test void asks() { assertFalse(Corpus.dir().toString().isEmpty()); }
        @Test void doesNot() { assertEquals(2, 1 + 1); }
        @Test void copyOnly() { assertFalse(Corpus.copy().toString().isEmpty()); }
    }

    /** Asks in a static field: every test of it reads the corpus. */
    static class AsksInAField {
        static final Path CORPUS = Corpus.dir();
        @Test void one() { assertFalse(CORPUS.toString().isEmpty()); }
        @Test void two() { assertEquals(2, 1 + 1); }
    }

    /** Never asks: no file. */
    static class NeverAsks {
        @Test void one() { assertEquals(2, 1 + 1); }
    }

    /**
     * On a checkout without the corpus, reads a folder the copy holds whole (what the corpus would
     * give), and a file of one it holds in part (the corpus has more beside it): only the second asks.
     */
    static class ReadsTheCopy {
        @Test void wholeFolder() { assertTrue(Files.isDirectory(Corpus.require("jax-0.10.2/transformer-2layer"))); }
        @Test void partOfAFolder() { assertTrue(Files.isRegularFile(Corpus.require("public/part.txt"))); }
    }

    /** The fixtures run on a checkout of their own, with no corpus beside it and a copy of two files. */
    @Test
    void notesTheMethodsThatAskAndTheClassesThatAskOutsideThem(@TempDir Path dir) throws Exception {
        Path checkout = dir.resolve("checkout"), noted = Files.createDirectory(dir.resolve("noted"));
        Path copy = checkout.resolve("query-engine/src/test/resources/corpus");
        Files.createDirectories(copy.resolve("jax-0.10.2/transformer-2layer"));
        Files.writeString(copy.resolve("jax-0.10.2/transformer-2layer/whole.txt"), "x");
        Files.createDirectories(copy.resolve("public"));
        Files.writeString(copy.resolve("public/part.txt"), "x");
        String wasNoted = System.getProperty("bufq.corpusTests"), wasRoot = System.getProperty("bufq.root");
        System.setProperty("bufq.corpusTests", noted.toString());
        System.setProperty("bufq.root", checkout.toString());
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        try {
            assertEquals(copy.toAbsolutePath().normalize(), Corpus.copy(), "the fixtures' copy");
            LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClass(AsksInOneMethod.class), selectClass(AsksInAField.class), selectClass(NeverAsks.class),
                            selectClass(ReadsTheCopy.class))
                    .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                    .build(), summary);
        } finally {
            if (wasNoted == null) System.clearProperty("bufq.corpusTests"); else System.setProperty("bufq.corpusTests", wasNoted);
            if (wasRoot == null) System.clearProperty("bufq.root"); else System.setProperty("bufq.root", wasRoot);
        }
        assertEquals(8, summary.getSummary().getTestsSucceededCount(), "the fixtures ran");
        assertEquals("asks\n", Files.readString(noted.resolve(AsksInOneMethod.class.getName())));
        assertEquals(CorpusUseRecorder.WHOLE_CLASS + "\n", Files.readString(noted.resolve(AsksInAField.class.getName())));
        assertEquals("partOfAFolder\n", Files.readString(noted.resolve(ReadsTheCopy.class.getName())), "a whole folder of the copy is not asking");
        try (var files = Files.list(noted)) {
            assertEquals(3, files.count(), "a class that never asks has no file");
        }
    }
}
