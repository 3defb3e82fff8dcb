package bufq.shell.session;

import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.shell.cli.Bufq;
import bufq.shell.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statements that need only the allocation section and the live ranges leave a module's Used
 * values section unread, on a module whose dump labels another step than bufq's peak (so the note
 * explaining the label, which once sized values by their instructions, runs too); those that need
 * it declare it, so the shell reads it before running them.
 */
class DeferredSectionTest {
    record Session(Shell shell, ByteArrayOutputStream out, ByteArrayOutputStream err) {}

    static Session session(Path dump) throws Engine.Failure {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell s = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        s.load(List.of(dump));
        return new Session(s, out, err);
    }

    private static final List<String> CHEAP = List.of(
            "summary", "timeline", "steps", "fragmentation", "map 0", "padding", "check", "modules",
            "values where live at peak show count(), sum(size)",
            "values show id, name, size, offset, allocation, shape, color, start, end order by size desc limit 5",
            "allocations order by size desc limit 3");

    @Test
    void statementsOnBytesLeaveTheValuesSectionUnread() throws Exception {
        Session s = session(Corpus.require("jax-0.10.2/transformer-12layer"));
        HloModule m = s.shell().current();
        assertNotEquals(m.liveness().peakTime(), m.liveness().claimedPeakTime(), "the dump's label is not the peak");
        assertFalse(m.isRead(DumpPart.USED_VALUES));
        for (String statement : CHEAP) {
            assertEquals(java.util.Set.of(), s.shell().needs(statement), statement + " declares no part");
            assertEquals(Status.OK, s.shell().execute(statement), statement + ": " + s.err());
            assertFalse(m.isRead(DumpPart.USED_VALUES), statement + " read the Used values section");
        }
        assertTrue(s.out().toString(StandardCharsets.UTF_8).contains("XLA's ComputePeakMemoryMoment"), "summary's note ran");
    }

}
