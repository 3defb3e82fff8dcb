package bufq.shell.session;

import bufq.shell.run.Shell;
import bufq.shell.cli.Bufq;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An interactive session opened on one module shows its prompt before the module is
 * read. The REPL starts with the module not read (its handle known, for the prompt); the first
 * statement, or an idle prompt, waits for the read and says once what it found wrong. Several
 * modules are read before the prompt, as before. Each test drives the real {@link Bufq#run} with a
 * REPL that records what it finds, then runs statements as a user would.
 */
class ReadBehindPromptTest {
    final FakeEngine engine = new FakeEngine();
    final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();

    /** What the REPL saw as it started, before anything it ran. */
    String handleAtStart;
    String currentAtStart;
    int parsedAtStart = -1;

    /** Runs {@code bufq PATHS} on a terminal; the REPL records, then runs {@code session}. */
    int run(ReplBody session, String... paths) {
        Bufq b = new Bufq(new Env(Map.of(), true), () -> engine, in -> shell -> {
            handleAtStart = shell.modules().loadingHandle();
            currentAtStart = shell.current() == null ? null : shell.current().handle();
            parsedAtStart = engine.parsed.get();
            session.run(shell);
            return ExitCode.OK;
        });
        return b.run(paths, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    interface ReplBody {
        void run(Shell shell);
    }

    String out() { return out.toString(StandardCharsets.UTF_8); }
    String err() { return err.toString(StandardCharsets.UTF_8); }

    @Test
    void oneModuleIsReadAfterThePromptAndTheFirstStatementWaitsForIt() {
        List<Status> st = new ArrayList<>();
        int code = run(shell -> st.add(shell.execute("values limit 1")), "a.txt");
        assertEquals(ExitCode.OK, code, err());
        assertEquals("a", handleAtStart, "the prompt names the module being read");
        assertNull(currentAtStart, "not read yet when the prompt shows");
        assertEquals(0, parsedAtStart, "nothing parsed before the prompt");
        assertEquals(List.of(Status.OK), st, err());
        assertTrue(out().contains("p0"), out());
        assertEquals(1, engine.parsed.get());
        assertEquals("", err());
    }

    @Test
    void severalModulesAreReadBeforeThePrompt() {
        int code = run(shell -> { }, "a.txt", "b.txt");
        assertEquals(ExitCode.OK, code, err());
        assertNull(handleAtStart);
        assertEquals("a", currentAtStart);
        assertEquals(2, parsedAtStart);
        assertTrue(err().contains("2 modules loaded; current: a"), err());
    }

    @Test
    void aModuleThatCannotBeReadIsSaidOnceAndTheSessionGoesOn() {
        List<Status> st = new ArrayList<>();
        int code = run(shell -> {
            st.add(shell.execute("values"));
            st.add(shell.execute("values"));
        }, "bad.txt");
        assertEquals(ExitCode.OK, code, "an interactive session goes on without its module: " + err());
        assertEquals("bad", handleAtStart);
        assertEquals(List.of(Status.ERROR, Status.ERROR), st);
        String e = err();
        assertTrue(e.startsWith("bufq: bad.txt:1: not a buffer-assignment dump (expected 'BufferAssignment:')\n"), e);
        assertEquals(e.indexOf("bufq: bad.txt:1:"), e.lastIndexOf("bufq: bad.txt:1:"), "said once: " + e);
        assertTrue(e.contains("no module loaded"), e);
    }

    @Test
    void anIdlePromptWaitsForTheReadAndShowsItsWarningsOnce() {
        List<String> shown = new ArrayList<>();
        int code = run(shell -> {
            shell.idle(() -> false, shown::add);
            shell.execute("values limit 1");
        }, "warn.txt");
        assertEquals(ExitCode.OK, code, err());
        assertEquals(11, shown.size(), "ten warnings and a count of the rest: " + shown);
        assertTrue(shown.get(0).startsWith("bufq: warning: warn.txt:1: malformed value line"), shown.get(0));
        assertTrue(shown.get(10).startsWith("bufq: warning: 2 more warnings in warn"), shown.get(10));
        assertFalse(err().contains("warning"), "not shown again by the statement: " + err());
        assertTrue(out().contains("p0"), out());
    }

    @Test
    void aBatchRunReadsItsModuleFirst() {
        Bufq b = new Bufq(new Env(Map.of(), true), () -> engine, in -> { throw new AssertionError("no REPL for -c"); });
        int code = b.run(new String[] {"-c", "values limit 1", "bad.txt"}, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(ExitCode.LOAD, code, "a module that cannot be read fails the run before its statements");
        assertEquals("", out());
    }

    /**
     * Ctrl-C while the module is still being read ends the statement at once (it waited
     * 1.5 to 3.7 s for the whole read, which swallowed the interrupt); the read goes on, and the
     * next statement has its module.
     */
    @Test
    void ctrlCDuringTheReadEndsTheStatementWithoutWaitingForTheRead() throws Exception {
        CountDownLatch reading = new CountDownLatch(1), release = new CountDownLatch(1);
        Shell shell = Bufq.shell(engine, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), true));
        shell.modules().loadInBackground(new Engine.FoundModule() {
            @Override public String name() { return "slow"; }
            @Override public List<String> files() { return List.of("slow.txt"); }
            @Override public HloModule load() {
                reading.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new AssertionError("the read is not the statement's to stop");
                }
                return FakeEngine.module("slow");
            }
        });
        AtomicReference<Status> st = new AtomicReference<>();
        Thread t = new Thread(() -> st.set(shell.execute("values limit 1")));
        t.start();
        try {
            reading.await();
            t.interrupt();   // what the REPL does on Ctrl-C
            t.join(20_000);  // only a bound for a broken build: the statement returns at once
            assertFalse(t.isAlive(), "the cancelled statement waited for the read");
            assertEquals(Status.ERROR, st.get());
            assertTrue(err().contains(CommandException.CANCELLED), err());
        } finally {
            release.countDown();
        }
        t.join();
        out.reset();
        assertEquals(Status.OK, shell.execute("values limit 1"), err());
        assertTrue(out().contains("p0"), out());
    }
}
