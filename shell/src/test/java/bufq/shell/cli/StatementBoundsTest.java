package bufq.shell.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.lang.Parser;
import bufq.shell.session.ExitCode;
import java.nio.file.Files;
import java.time.Duration;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parsing and planning ran before the time limit, so a 74,000-term statement took 11 s
 * and 1.6 GB under 'set timeout 1'. A statement past {@link Parser#MAX_LENGTH} is refused before
 * any of that work, on one line or spread over many; one within the bound runs.
 */
class StatementBoundsTest {
    @TempDir Path dir;

    private static final String DUMP = Path.of(System.getProperty("bufq.root", "..")).resolve("examples/jax-mlp").toString();
    private static final String TERMS = "size > 1 and ".repeat(74_000) + "size > 0";

    @Test
    void aHugeStatementIsRefusedBeforeItIsParsed() {
        HostileFilesTest.Result r = HostileFilesTest.run("--no-init", DUMP, "-c", "set timeout 1",
                "-c", "values where " + TERMS + " show count()", "-c", "values where size > 0 show count()");
        assertEquals(ExitCode.FAILED, r.code(), r.err());
        assertTrue(r.err().contains("statement too long (more than " + Parser.MAX_LENGTH + " characters)"), r.err());
        assertTrue(r.out().contains("26"), "the next statement runs: " + r.out());
    }

    @Test
    void aHugeStatementOverManyLinesIsRefusedAndItsLinesDropped() throws Exception {
        Path script = dir.resolve("long.bq");
        Files.writeString(script, "values where size > 1 and\n" + "size > 1 and\n".repeat(74_000) + "size > 0\n  show count()\n"
                + "values where size > 0 show count()\n");
        HostileFilesTest.Result r = HostileFilesTest.run("--no-init", DUMP, "-f", script.toString());
        assertTrue(r.err().contains("statement too long"), r.err());
        assertEquals(1, r.err().lines().filter(l -> l.contains("error")).count(), "one error, not one per line: " + r.err());
        assertTrue(r.out().contains("26"), "the statement after it runs: " + r.out());
    }

    /**
     * A string or a parenthesis left open over 100,000 lines. The open string was lexed
     * again whole on every line (quadratic: minutes), and once past the bound each line after it
     * was an error of its own; the closing parenthesis came out as a second one.
     */
    @Test
    void aStringOrParenthesisOpenOverAHundredThousandLinesIsOneError() throws Exception {
        for (String open : new String[] {"values where label = 'a\n" + "x\n".repeat(100_000) + "'\n  show count()\n",
                "values where (size > 1\n" + "and size > 1\n".repeat(100_000) + ")\n"}) {
            Path script = Files.writeString(dir.resolve("open.bq"), open + "values where size > 0 show count()\n");
            HostileFilesTest.Result r = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> HostileFilesTest.run("--no-init", DUMP, "-f", script.toString()));
            assertTrue(r.err().contains("open.bq:1: error: statement too long"), r.err());
            assertEquals(1, r.err().lines().filter(l -> l.contains("error")).count(), "one error, not one per line: " + r.err());
            assertTrue(r.out().contains("26"), "the statement after it runs: " + r.out());
        }
    }

    /** A {@code js} statement over 100,000 lines was scanned whole on every line (it never ended); once each now. */
    @Test
    void aJsStatementOfAHundredThousandLinesIsReadInLinearTime() throws Exception {
        Path script = Files.writeString(dir.resolve("long.bq"), "js print([1,\n" + "2,\n".repeat(100_000) + "3].length)\n"
                + "values where size > 0 show count()\n");
        HostileFilesTest.Result r = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> HostileFilesTest.run("--no-init", DUMP, "-f", script.toString()));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("100002\n"), r.out());
        assertTrue(r.out().contains("26"), "the statement after it runs: " + r.out());
    }

    @Test
    void aQueryAtTheConditionBoundRuns() {
        String q = "values where " + "size > 1 and ".repeat(Parser.MAX_CONDITIONS - 1) + "size > 0 show count()";
        HostileFilesTest.Result r = HostileFilesTest.run("--no-init", DUMP, "-c", q);
        assertEquals(0, r.code(), r.err());
        String over = "values where " + "size > 1 and ".repeat(Parser.MAX_CONDITIONS) + "size > 0 show count()";
        r = HostileFilesTest.run("--no-init", DUMP, "-c", over);
        assertTrue(r.err().contains("too many conditions in one query (more than " + Parser.MAX_CONDITIONS + ")"), r.err());
    }
}
