package bufq.testing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A test that needs one named corpus file skips on a user's clone without it and fails in CI
 * ({@code -Dbufq.requireCorpus=true}), as a missing corpus directory does.
 */
class CorpusTest {
    private final String before = System.getProperty("bufq.requireCorpus");

    @AfterEach
    void restore() {
        if (before == null) System.clearProperty("bufq.requireCorpus");
        else System.setProperty("bufq.requireCorpus", before);
    }

    @Test
    void aMissingNamedFileFailsUnderTheFlag() {
        System.setProperty("bufq.requireCorpus", "true");
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> Corpus.requireFile("public", "no-such-dump-buffer-assignment.txt"));
        assertTrue(e.getMessage().contains("bufq.requireCorpus is set"), e.getMessage());
    }

    @Test
    void aMissingNamedFileSkipsWithoutTheFlag() {
        System.clearProperty("bufq.requireCorpus");
        assertThrows(TestAbortedException.class, () -> Corpus.requireFile("public", "no-such-dump-buffer-assignment.txt"));
    }
}
