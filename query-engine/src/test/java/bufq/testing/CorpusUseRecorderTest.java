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

    @Test
    void notesTheMethodsThatAskAndTheClassesThatAskOutsideThem(@TempDir Path dir) throws Exception {
        String was = System.getProperty("bufq.corpusTests");
        System.setProperty("bufq.corpusTests", dir.toString());
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        try {
            LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectClass(AsksInOneMethod.class), selectClass(AsksInAField.class), selectClass(NeverAsks.class))
                    .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                    .build(), summary);
        } finally {
            if (was == null) System.clearProperty("bufq.corpusTests"); else System.setProperty("bufq.corpusTests", was);
        }
        assertEquals(6, summary.getSummary().getTestsSucceededCount(), "the fixtures ran");
        assertEquals("asks\n", Files.readString(dir.resolve(AsksInOneMethod.class.getName())));
        assertEquals(CorpusUseRecorder.WHOLE_CLASS + "\n", Files.readString(dir.resolve(AsksInAField.class.getName())));
        try (var files = Files.list(dir)) {
            assertEquals(2, files.count(), "a class that never asks has no file");
        }
    }
}
