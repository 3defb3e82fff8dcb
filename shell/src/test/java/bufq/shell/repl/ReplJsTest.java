package bufq.shell.repl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** JavaScript at the JLine prompt: unfinished code continues, and its line breaks reach the engine. */
class ReplJsTest {
    @TempDir Path state;

    @Test
    @org.junit.jupiter.api.Timeout(60) // broken continuation leaves JLine waiting for the end of the code
    void multiLineJsWithCommentsRuns() throws Exception {
        Transcript t = new Transcript(state);
        t.errToScreen = true;
        String screen = t.run("js function twice(x) {\n  // a comment: joined into one line it would eat the rest\n"
                + "  return 2 * x\n}\njs twice(21)\n");
        assertTrue(screen.contains(JLineRepl.CONTINUATION), "asked for more lines: " + screen);
        assertTrue(screen.contains("\n42\n"), screen);
        assertFalse(screen.contains("error"), screen);
    }
}
