package bufq.shell.repl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** Ctrl-C while pasting into {@code oom -} cancels the paste and says so; the shell goes on. */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PasteCancelTest {
    @TempDir Path state;

    @Test
    void ctrlCInAPasteCancelsItAndSaysSo() throws IOException {
        Transcript t = new Transcript(state);
        t.env.put("NO_COLOR", "1");
        String s = t.run("oom -\nRESOURCE_EXHAUSTED: Out of memory while trying to alloc\u0003values limit 1\n");
        assertTrue(t.err().contains("paste cancelled (Ctrl-C): nothing read"), t.err());
        assertFalse(t.err().contains("nothing to paste"), t.err());
        assertTrue(s.contains("(1 row)"), "the shell reads the next statement: " + s);
        assertEquals(0, t.exit);
    }
}
