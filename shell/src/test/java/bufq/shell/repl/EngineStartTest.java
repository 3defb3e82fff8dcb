package bufq.shell.repl;

import bufq.api.Extensions;
import bufq.shell.script.Scripts;
import bufq.shell.session.CommandException;
import bufq.shell.api.ScriptEngine;
import bufq.shell.session.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The interactive shell starts the script engine in the background once its prompt is idle, so
 * the first {@code js} finds it ready; the plain loop (piped stdin) and statements run directly
 * never start it. (That a batch run without JavaScript loads no GraalVM class at all is
 * {@code LazyEngineTest} and {@code StartupTest}.)
 */
class EngineStartTest {
    @TempDir Path state;

    /** Counts {@link #prepare} calls; runs nothing. */
    static final class Counting implements ScriptEngine {
        final CountDownLatch prepared;
        final ScriptEngine real;
        final CountDownLatch initRan = new CountDownLatch(1);

        Counting(ScriptEngine real, CountDownLatch prepared) {
            this.real = real;
            this.prepared = prepared;
        }

        @Override public void prepare() {
            if (real != null) real.prepare();
            prepared.countDown();
        }
        @Override public String extension() { return "js"; }
        @Override public Status eval(String code, String sourceName) throws CommandException {
            if (real == null) throw new CommandException("no scripts here");
            return real.eval(code, sourceName);
        }
        @Override public Status runFile(Path file) throws CommandException { return eval("", file.toString()); }
        @Override public void runInit() {
            if (real != null) real.runInit();
            initRan.countDown();
        }
        @Override public boolean incomplete(String code) { return false; }
        @Override public List<Extensions.Check> checks() { return real == null ? List.of() : real.checks(); }
        @Override public void cancel() {}
        @Override public void close() { if (real != null) real.close(); }
    }

    @Test
    @Timeout(120)
    void anIdlePromptStartsTheEngineAndTheFirstJsUsesIt() throws Exception {
        Transcript t = new Transcript(state);
        t.errToScreen = true;
        Counting[] made = new Counting[1];
        CountDownLatch prepared = new CountDownLatch(1);
        t.scripts = session -> made[0] = new Counting(new Scripts(session), prepared);
        PipedOutputStream keys = new PipedOutputStream();
        t.open(new PipedInputStream(keys));
        int[] exit = {-1};
        Thread repl = new Thread(() -> exit[0] = new JLineRepl(() -> t.terminal, java.io.InputStream.nullInputStream(), 0).run(t.shell));
        repl.start();
        // Nothing typed: the prompt waits, and the engine starts meanwhile.
        assertTrue(prepared.await(60, TimeUnit.SECONDS), "an idle prompt starts the engine");
        assertTrue(((Scripts) made[0].real).started());
        keys.write("js 1 + 1\n\u0004".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        repl.join(60_000);
        assertFalse(repl.isAlive());
        assertEquals(0, exit[0]);
        assertTrue(t.screen().contains("\n2\n"), "the engine started on another thread answers: " + t.screen());
        assertFalse(t.screen().contains("error"), t.screen());
    }

    /**
     * An idle prompt runs a deferred init.js after starting the engine: what it prints shows above the
     * prompt, and a statement entered meanwhile waits for it, then sees what it defined.
     */
    @Test
    @Timeout(120)
    void anIdlePromptRunsInitJs(@TempDir Path config) throws Exception {
        java.nio.file.Files.createDirectories(config.resolve("bufq"));
        java.nio.file.Files.writeString(config.resolve("bufq/init.js"),
                "print('hello from init');\nbufq.tiling('page1k', shape => 1024);\n");
        Transcript t = new Transcript(state);
        t.errToScreen = true;
        t.env.put("XDG_CONFIG_HOME", config.toString());
        Counting[] made = new Counting[1];
        t.scripts = session -> made[0] = new Counting(new Scripts(session), new CountDownLatch(1));
        PipedOutputStream keys = new PipedOutputStream();
        t.open(new PipedInputStream(keys));
        t.shell.deferInit();
        t.shell.scripts();   // made now (its engine starts at the idle prompt)
        Thread repl = new Thread(() -> t.exit = new JLineRepl(() -> t.terminal, java.io.InputStream.nullInputStream(), 0).run(t.shell));
        repl.start();
        assertFalse(((Scripts) made[0].real).started(), "nothing ran before the prompt");
        assertTrue(made[0].initRan.await(60, TimeUnit.SECONDS), "an idle prompt runs init.js");
        // The statement may come while init.js still prints: it waits for it.
        keys.write("set tiling page1k\nset tiling\n\u0004".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        repl.join(60_000);
        assertFalse(repl.isAlive());
        String screen = t.screen();
        assertTrue(screen.contains("hello from init\n"), screen);
        // The line typed may echo first; the statement's result waits for init.js and what it printed.
        assertTrue(screen.indexOf("hello from init") < screen.indexOf("name    value"), "shown before the result: " + screen);
        assertTrue(screen.contains("tiling  page1k"), "the tiling model init.js defined is there: " + screen);
        assertFalse(screen.contains("error"), screen);
    }

    @Test
    void pipedStdinAndDirectStatementsNeverStartIt() throws Exception {
        Transcript t = new Transcript(state);
        CountDownLatch prepared = new CountDownLatch(1);
        t.scripts = session -> new Counting(null, prepared);
        t.open(new ByteArrayInputStream(new byte[0]));
        assertEquals(Status.OK, t.shell.execute("summary"));
        int exit = new PlainRepl(new ByteArrayInputStream("summary\nvalues limit 1\n".getBytes(StandardCharsets.UTF_8))).run(t.shell);
        assertEquals(0, exit);
        assertEquals(1, prepared.getCount(), "no background start without a prompt");
    }
}
