package bufq.testing;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** A test that skips for want of the corpus says so on the console, not only in Surefire's XML. */
class CorpusSkipTest {
    @Test
    void aSkipIsSaidOnTheConsole() {
        // where a missing corpus is a failure, there is no skip to say
        assumeFalse(Boolean.getBoolean("bufq.requireCorpus"));
        PrintStream saved = System.out;
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        System.setOut(new PrintStream(seen, true, StandardCharsets.UTF_8));
        try {
            assertThrows(TestAbortedException.class, () -> Corpus.require("no-such-folder-anywhere/none"));
        } finally {
            System.setOut(saved);
        }
        String said = seen.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("[corpus] " + CorpusSkipTest.class.getName()) && said.contains("no-such-folder-anywhere"), said);
    }
}
