package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Small dead ends, each as a new user meets it on the command line. */
class DeadEndsTest {
    private static final String MLP = CliTest.root().resolve("examples/jax-mlp").toString();

    private static CliTest.Result run(String... args) {
        return CliTest.run(DefaultEngine::new, Map.of(), List.of(args), "");
    }

    @Test
    void aSwappedLetterSuggestsTheCommand() {
        CliTest.Result r = run("-c", "fti", MLP);
        assertTrue(r.err().contains("unknown command 'fti'; did you mean 'fit'?"), r.err());
        assertTrue(run("-c", "advies", MLP).err().contains("did you mean 'advise'?"));
    }

    @Test
    void aPrefixOfSeveralDevicesNamesThemAll() {
        CliTest.Result r = run("--device", "v5", "-c", "fit", MLP);
        assertTrue(r.err().contains("unknown device 'v5'; did you mean 'v5e' or 'v5p'?"), r.err());
        assertFalse(r.err().contains("did you mean 'v4'"), r.err());
        assertTrue(run("-c", "set device h10", MLP).err().contains("did you mean 'h100'?"));
    }

    @Test
    void reportCommandsTakeALimitAsQueriesDo() {
        CliTest.Result blame = run("--format", "csv", "-c", "blame by op_name limit 3", MLP);
        assertEquals(0, blame.code(), blame.err());
        assertEquals(4, blame.out().lines().count(), "a header and 3 rows: " + blame.out());
        CliTest.Result table = run("-c", "blame limit 2", "-c", "peaks limit 1", "-c", "padding limit 1",
                "-c", "fragmentation limit 2", MLP);
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("8 more rows (limit 2; a larger limit shows them)"), table.out());
        assertTrue(table.out().contains("11 more rows (limit 2; a larger limit shows them)"), table.out());
        CliTest.Result bad = run("-c", "blame limit x", MLP);
        assertTrue(bad.err().contains("'limit' takes a whole number >= 0, not 'x'"), bad.err());
    }

    /** A command's wrong word is drawn as a query's is: the statement, a caret under the word, a did-you-mean. */
    @Test
    void aCommandsWrongWordGetsACaret() {
        CliTest.Result r = run("-c", "blame dpeth 3", MLP);
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("blame dpeth 3\n      ^^^^^\nunexpected 'dpeth'"), r.err());
        assertTrue(r.err().contains("did you mean 'depth'?"), r.err());
        r = run("-c", "blame at wraped_copy.1", MLP);
        assertTrue(r.err().contains("blame at wraped_copy.1\n         ^^^^^^^^^^^^^\n"), r.err());
        assertTrue(r.err().contains("did you mean 'wrapped_copy.1'"), r.err());
        CliTest.Result named = run("--format", "csv", "-c", "blame at wrapped_copy.1 limit 1", MLP);
        assertEquals(0, named.code(), "a scheduled instruction names a step, as in 'live at': " + named.err());
    }

    @Test
    void setConfirmsInOneLine() {
        CliTest.Result r = run("-c", "set capacity 16GiB", "-c", "set maxrows 50", "-c", "set device v5e", "-c", "set", MLP);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("capacity = 16GiB (17,179,869,184 B)\n"), r.err());
        assertTrue(r.err().contains("maxrows = 50\n"), r.err());
        assertTrue(r.err().contains("device = v5e (16 GiB HBM2 per chip)\n"), r.err());
        assertFalse(r.out().contains("capacity = "), "the confirmation is a message, not a result: " + r.out());
        assertTrue(r.out().matches("(?s).*\ncapacity +16GiB +SIZE.*"), "the listing is as it was: " + r.out());
    }

    @Test
    void helpTellsTheOutOfMemoryStoryInThreeLines() {
        String help = run("--help").out();
        int at = help.indexOf("Out of memory?");
        assertTrue(at >= 0, help);
        // three commands; the second says what a CPU run takes instead of a device, indented under it
        List<String> story = help.substring(at).lines().skip(1).filter(l -> l.startsWith("  bufq ")).limit(3).toList();
        assertTrue(story.get(0).contains("bufq --oom err.log DIR"), help);
        assertTrue(story.get(1).contains("bufq --device v5e -c fit DIR"), help);
        assertTrue(story.get(2).contains("bufq -c advise DIR"), help);
    }
}
