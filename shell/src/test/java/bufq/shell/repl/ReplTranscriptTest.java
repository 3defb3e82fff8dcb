package bufq.shell.repl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The REPL end to end over a dumb terminal: typing, Tab, continuation lines, Ctrl-C, Ctrl-D, history. */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReplTranscriptTest {
    @TempDir Path state;

    Transcript transcript() {
        Transcript t = new Transcript(state);
        t.env.put("NO_COLOR", "1");
        return t;
    }

    @Test
    void typingAQueryPrintsATableUnderAPromptNamingTheModule() throws IOException {
        Transcript t = transcript();
        String s = t.run("values where size >= 16KiB order by size desc limit 2\n");
        assertTrue(s.contains("bufq(004_0cb419b3147a3cb6)> values where size >= 16KiB"), s);
        assertTrue(s.contains("69  Arg_1.2"), s);
        assertTrue(s.contains("(2 rows)"), s);
        assertFalse(s.contains("\u001b["), "NO_COLOR: no escape codes: " + s);
        assertEquals(0, t.exit);
        assertEquals("", t.err());
    }

    /** The module read behind the first prompt is named by it, and a statement waits for it. */
    @Test
    void thePromptNamesAModuleStillBeingRead() throws IOException {
        Transcript t = transcript();
        t.readBehindPrompt = true;
        String s = t.run("values where size >= 16KiB order by size desc limit 2\n");
        assertTrue(s.contains("bufq(004_0cb419b3147a3cb6)> values where size >= 16KiB"), s);
        assertTrue(s.contains("69  Arg_1.2"), s);
        assertEquals(0, t.exit);
        assertEquals("", t.err());
    }

    /**
     * The run that makes the launcher's class-data archive rehearses a session on a terminal of its
     * own: what is typed runs in the shell, the terminal's drawing goes nowhere.
     */
    @Test
    void aRehearsalRunsWhatItTypesInTheShell() throws IOException {
        Transcript t = transcript();
        t.open(java.io.InputStream.nullInputStream());
        JLineRepl.rehearse(t.shell, "values where size >= 16KiB show count()\nsumm\t\n");
        assertEquals(List.of("values where size >= 16KiB show count()", "summary"), t.shell.history().entries());
        assertTrue(t.screen().contains("count()"), "the statements' output is the shell's: " + t.screen());
        assertFalse(t.screen().contains("bufq(004_0cb419b3147a3cb6)>"), "the prompts are drawn on the rehearsal's terminal: " + t.screen());
    }

    @Test
    void tabCompletesAnEntityAndAField() throws IOException {
        Transcript t = transcript();
        t.type = "ansi";
        t.run("valu\twhere siz\t>= 16KiB limit 1\n");
        assertEquals(List.of("values where size >= 16KiB limit 1"), t.shell.history().entries());
        assertTrue(t.screen().contains("(1 row)"), t.screen());
    }

    @Test
    void anUnfinishedQueryContinuesOnTheNextLine() throws IOException {
        Transcript t = transcript();
        String s = t.run("values where\nsize >= 16KiB and\n(color = 1\n)\n");
        assertTrue(s.contains(JLineRepl.CONTINUATION), "continuation prompt: " + s);
        assertEquals(List.of("values where size >= 16KiB and (color = 1 )"), t.shell.history().entries());
        assertTrue(s.contains("copy-start{0}"), s);
        assertEquals("", t.err());
    }

    @Test
    void backslashContinuesACommand() throws IOException {
        Transcript t = transcript();
        t.run("help \\\nformats\n");
        assertEquals(List.of("help formats"), t.shell.history().entries());
        assertTrue(t.screen().contains("csv"), t.screen());
        assertEquals("", t.err());
    }

    @Test
    void ctrlCDropsTheLineAndDoesNotExit() throws IOException {
        Transcript t = transcript();
        String s = t.run("valu junk\u0003values limit 1\n");
        assertTrue(s.contains("valu junk"), "the dropped line was on screen: " + s);
        assertEquals(List.of("values limit 1"), t.shell.history().entries());
        assertTrue(s.contains("(1 row)"), s);
        assertFalse(t.err().contains("unknown command"), t.err());
        assertEquals(0, t.exit);
    }

    @Test
    void ctrlDAndQuitLeaveCleanly() throws IOException {
        Transcript t = transcript();
        t.run("\u0004values limit 1\n");
        assertEquals(0, t.exit);
        assertTrue(t.shell.history().entries().isEmpty(), "nothing after Ctrl-D is read");
        Transcript q = new Transcript(state.resolve("q"));
        q.run("quit\nvalues limit 1\n");
        assertEquals(0, q.exit);
        assertFalse(q.screen().contains("(1 row)"), q.screen());
    }

    @Test
    void historyIsSavedAndComesBackInTheNextSession() throws IOException {
        Transcript first = transcript();
        first.run("values limit 1\nvalues where\nsize > 1KiB\n");
        Path file = state.resolve("bufq/history");
        assertTrue(Files.isRegularFile(file), "history under XDG_STATE_HOME");
        assertEquals(List.of("values limit 1", "values where\nsize > 1KiB"), new HistoryFile(file).load());
        try (var dir = Files.list(file.getParent())) {
            assertEquals(List.of(file), dir.toList(), "no temporary file left behind");
        }

        Transcript second = transcript();
        String s = second.run("history\n");
        assertTrue(s.contains("values limit 1"), s);
        assertTrue(s.contains("values where size > 1KiB"), s);
        assertEquals(List.of("values limit 1", "values where\nsize > 1KiB", "history"), new HistoryFile(file).load());
    }

    @Test
    void upArrowRecallsTheLastSessionsLine() throws IOException {
        transcript().run("values limit 1\n");
        Transcript second = transcript();
        second.type = "ansi";  // a dumb terminal has no history keys
        second.run("\u0010\n");  // Ctrl-P: previous history line
        // The recalled line ran; being the same as the last entry, it is not stored twice.
        assertEquals(List.of("values limit 1"), second.shell.history().entries());
        assertTrue(second.screen().contains("(1 row)"), second.screen());
    }

    /**
     * Starts the REPL of {@code t} on a thread, reading {@code keys}, and types a query that blocks
     * until it is cancelled; returns the thread once the query runs.
     */
    static Thread replRunningASlowQuery(Transcript t, PipedOutputStream keys) throws Exception {
        t.engine.slow = true;
        t.open(new PipedInputStream(keys));
        Thread repl = new Thread(() -> t.exit = new JLineRepl(() -> t.terminal, java.io.InputStream.nullInputStream()).run(t.shell));
        repl.start();
        keys.write("values limit 1\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        assertTrue(t.engine.slowStarted.await(20, TimeUnit.SECONDS), "the query is running");
        t.engine.slow = false;
        return repl;
    }

    @Test
    void ctrlCWhileAQueryRunsCancelsItAndTheShellGoesOn() throws Exception {
        Transcript t = transcript();
        PipedOutputStream keys = new PipedOutputStream();
        Thread repl = replRunningASlowQuery(t, keys);
        t.terminal.raise(org.jline.terminal.Terminal.Signal.INT);  // what Ctrl-C does on a real terminal
        keys.write("values limit 1\nquit\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        repl.join(20_000);
        assertFalse(repl.isAlive(), "the REPL went on and quit");
        assertTrue(t.err().contains("query cancelled"), "err: " + t.err() + "\nscreen: " + t.screen());
        assertTrue(t.screen().contains("(1 row)"), "the next query ran: " + t.screen());
        assertEquals(0, t.exit);
    }

    @Test
    void theCancelledMessageStartsALineOfItsOwnAfterTheEchoedCtrlC() throws Exception {
        Transcript t = transcript();
        t.errToScreen = true;
        PipedOutputStream keys = new PipedOutputStream();
        Thread repl = replRunningASlowQuery(t, keys);
        t.terminal.writer().print("^C");  // what a real terminal echoes at the cursor
        t.terminal.raise(org.jline.terminal.Terminal.Signal.INT);
        keys.write("quit\n".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        repl.join(20_000);
        assertFalse(repl.isAlive());
        assertTrue(t.screen().contains("^C\nerror: query cancelled"), t.screen());
    }

    @Test
    void withoutATerminalThePlainLoopTakesOver() throws IOException {
        Transcript t = transcript();
        t.open(InputStream.nullInputStream());
        InputStream typed = new java.io.ByteArrayInputStream("values limit 1\n".getBytes(StandardCharsets.UTF_8));
        int code = new JLineRepl(() -> { throw new IOException("no tty"); }, typed).run(t.shell);
        assertEquals(0, code);
        assertTrue(t.err().contains("no line editing (no tty)"), t.err());
        assertTrue(t.screen().contains("(1 row)"), t.screen());
    }

    @Test
    void multiLineJavaScriptRunsAsOneStatement() throws IOException {
        Transcript t = transcript();
        String s = t.run("js var o = {\n  a: 41, // the answer, almost\n};\njs o.a + 1\n");
        assertTrue(s.contains(JLineRepl.CONTINUATION), s);
        assertTrue(s.contains("42"), s + t.err());
        assertEquals("", t.err());
    }

    @Test
    void withThePagerOnTallResultsGoThroughPagerAndShortOnesPrint() throws IOException {
        Transcript t = transcript();
        Path paged = state.resolve("paged.txt");
        t.env.put("PAGER", "cat > '" + paged + "'");
        t.rows = 10;
        String s = t.run("values limit 1\nset pager on\nvalues limit 2\nvalues\n");
        assertTrue(Files.readString(paged).contains("(25 rows)"), "the tall table was paged");
        assertFalse(s.contains("(25 rows)"), "and not printed: " + s);
        assertTrue(s.contains("(2 rows)"), "a short one prints as usual: " + s);
        assertEquals("pager = on\n", t.err(), "set confirms; nothing else on stderr");
    }

    @Test
    void thePagerNeverTakesOutputMeantForAFile() throws IOException {
        Transcript t = transcript();
        Path paged = state.resolve("paged.txt"), file = state.resolve("out.txt");
        t.env.put("PAGER", "cat > '" + paged + "'");
        t.rows = 10;
        t.run("set pager on\noutput \"" + file + "\"\nvalues\noutput\n");
        assertTrue(Files.readString(file).contains("(25 rows)"));
        assertFalse(Files.exists(paged));
    }

    @Test
    void aDumbTerminalGetsNoColourEvenWithoutNoColor() throws IOException {
        Transcript t = new Transcript(state);
        String s = t.run("values limit 1\n");
        assertTrue(s.contains("(1 row)"), s);
        assertFalse(t.screen.toString(StandardCharsets.UTF_8).contains("\u001b["), "no escape codes");
        Transcript ansi = new Transcript(state.resolve("ansi"));
        ansi.type = "ansi";
        ansi.run("values limit 1\n");
        assertTrue(ansi.screen.toString(StandardCharsets.UTF_8).contains("\u001b[1mid"), "a capable terminal gets bold headers");
    }

    @Test
    void historyListsTheRecentPastNotTheOldest() throws IOException {
        HistoryFile f = new HistoryFile(state.resolve("bufq/history"));
        for (int i = 0; i < 500; i++) f.add("values limit " + i);
        f.save();
        Transcript t = transcript();
        t.run("history\n");
        List<String> h = t.shell.history().entries();
        assertEquals(JLineRepl.EARLIER_LISTED + 1, h.size());
        assertEquals("values limit 400", h.get(0));
        assertEquals("history", h.get(h.size() - 1));
    }

    @Test
    void anUnwritableHistoryIsReportedOnceAndTheShellGoesOn() throws IOException {
        Path notADir = state.resolve("file");
        Files.writeString(notADir, "x");
        Transcript t = transcript();
        t.env.put("XDG_STATE_HOME", notADir.toString());
        String s = t.run("values limit 1\nvalues limit 2\n");
        assertTrue(s.contains("(1 row)") && s.contains("(2 rows)"), s);
        // one message, broken at spaces to the terminal's width
        assertEquals(1, t.err().split("cannot read history", -1).length - 1, "one message: " + t.err());
        assertTrue(t.err().startsWith("bufq: cannot read history " + notADir), t.err());
        assertEquals("x", Files.readString(notADir), "nothing overwritten");
    }
}
