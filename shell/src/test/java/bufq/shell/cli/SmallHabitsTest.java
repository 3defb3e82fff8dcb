package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Small things a new user met: clear, check's summary, the --help recipe, the vertical format. */
class SmallHabitsTest {
    static final String MLP = CliTest.root().resolve("examples/jax-mlp").toString();

    @Test
    void clearClearsATerminalAndPrintsNothingElsewhere() {
        CliTest.Result screen = CliTest.run(DefaultEngine::new, new Env(Map.of("NO_COLOR", "1"), true), List.of("-c", "clear"), new byte[0]);
        assertEquals(0, screen.code(), screen.err());
        assertTrue(screen.out().contains("\033[2J"), screen.out());
        CliTest.Result pipe = CliTest.run(DefaultEngine::new, Map.of(), List.of("-c", "clear"), "");
        assertEquals(0, pipe.code(), pipe.err());
        assertEquals("", pipe.out());
        assertEquals("", pipe.err());
    }

    @Test
    void checkPrintsItsSummaryOnce() {
        CliTest.Result pipe = CliTest.run(DefaultEngine::new, Map.of(), List.of("-c", "check", MLP), "");
        String summary = pipe.out().lines().filter(l -> l.matches("\\d+ checks .*")).findFirst().orElseThrow(() -> new AssertionError(pipe.out()));
        assertFalse(pipe.err().contains(summary), "the summary is in the results already: " + pipe.err());
        // json has no notes: the summary goes to stderr
        CliTest.Result json = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "json", "-c", "check", MLP), "");
        assertTrue(json.err().contains(summary), json.err());
    }

    @Test
    void helpSaysWhatACpuRunTakesForFit() {
        CliTest.Result help = CliTest.run(DefaultEngine::new, Map.of(), List.of("--help"), "");
        assertTrue(help.out().contains("--device v5e -c fit DIR"), help.out());
        assertTrue(help.out().contains("a CPU run") && help.out().contains("--capacity host"), help.out());
        assertTrue(help.out().contains("table|vertical|markdown"), help.out());
    }

    @Test
    void verticalPrintsOneFieldPerLine() {
        CliTest.Result r = CliTest.run(DefaultEngine::new, Map.of(), List.of("--format", "vertical", "-c", "values order by id limit 2", MLP), "");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("-[ RECORD 1 ]") && r.out().contains("-[ RECORD 2 ]"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("id +\\| \\d+")), r.out());
        assertTrue(r.out().contains("(2 rows)"), r.out());
        CliTest.Result set = CliTest.run(DefaultEngine::new, Map.of(), List.of("-c", "set format vertical", "-c", "values order by id limit 1", MLP), "");
        assertTrue(set.out().contains("-[ RECORD 1 ]"), set.out());
    }
}
