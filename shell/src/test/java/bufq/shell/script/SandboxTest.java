package bufq.shell.script;

import bufq.shell.session.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** Every door a script from a bug report might try is shut, and a runaway script is stopped. */
class SandboxTest {
    final Harness h = new Harness().load(Harness.seed(0));

    @AfterEach
    void close() throws Exception { h.close(); }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "host class via Java.type     | Java.type('java.lang.Runtime')                         | Access to host class java.lang.Runtime is not allowed",
            "Runtime via package global   | java.lang.Runtime.getRuntime().exec('id')              | TypeError",
            "process builder              | new java.lang.ProcessBuilder(['id']).start()           | TypeError",
            "node require                 | require('fs')                                          | ReferenceError: require is not defined",
            "node process                 | process.env.HOME                                       | ReferenceError: process is not defined",
            "file read via load           | load('/etc/passwd')                                    | Operation is not allowed for: /etc/passwd",
            "file read via new global     | loadWithNewGlobal('/etc/passwd')                       | not allowed",
            "thread                       | new Thread(() => 1)                                    | ReferenceError: Thread is not defined",
            "java thread                  | Java.type('java.lang.Thread')                          | Access to host class java.lang.Thread is not allowed",
            "environment via System       | java.lang.System.getenv('HOME')                        | TypeError",
            "environment via Nashorn      | $ENV.HOME                                              | ReferenceError: $ENV is not defined",
            "other languages              | Polyglot.eval('python', '1')                           | ReferenceError: Polyglot is not defined",
            "host object reflection       | bufq.module.values[0].getClass()                       | TypeError",
            "exit the JVM                 | quit()                                                 | ReferenceError: quit is not defined",
    })
    void refused(String what, String code, String message) {
        String e = h.fails("js " + code);
        assertTrue(e.contains(message), what + ": " + e);
        assertTrue(e.contains("error: js:"), "names the place: " + e);
        assertFalse(e.contains("\tat "), "no stack trace: " + e);
        assertEquals("2\n", h.ok("js 1 + 1"), "the shell goes on");
    }

    /**
     * The limits below are a fifth of a second: a loop spins until the limit, so a longer one costs
     * only CPU. What runs after a stop runs under the default limit, which no busy machine reaches.
     */
    @Test
    void infiniteLoopStopsAtTheTimeLimitAndKeepsState() {
        h.ok("js bufq.field('values', 'twice', r => r.size * 2, {type: 'int'})");
        h.ok("set timeout 0.2");
        String e = h.fails("js while (true) {}");
        assertTrue(e.contains("js:1:1: script stopped after the 0.2 s time limit"), e);
        h.ok("set timeout 10");
        assertEquals("2\n", h.ok("js 1 + 1"));
        assertTrue(h.ok("values where id = 11 show twice").contains("8192"), "fields from before still work");
    }

    @Test
    void timeLimitAppliesToFieldsCalledByQueries() {
        h.ok("js bufq.field('values', 'forever', r => { while (true) {} }, {type: 'int'})");
        h.ok("set timeout 0.2");
        String e = h.fails("values show forever");
        assertTrue(e.contains("field 'forever' failed") && e.contains("time limit"), e);
    }

    @Test
    void runawayAllocationIsStopped() throws Exception {
        h.close();
        System.setProperty("bufq.js.maxheap", Long.toString(16L << 20));
        try (Harness small = new Harness().load(Harness.seed(0))) {
            // The memory limit is what stops it; the time limit is a backstop, far off: with the
            // client compiler on a loaded machine the script takes some seconds to fill 16 MiB.
            small.ok("set timeout 300");
            // The limit counts from the heap in use when the script starts, garbage included: with
            // the context made first and the garbage collected, the script fills 16 MiB, not 16 MiB
            // and whatever garbage the earlier tests of this JVM left (6-8 CPU-s instead of 1).
            assertEquals("0\n", small.ok("js 0"));
            System.gc();
            String e = small.fails("js let keep = []; while (true) keep.push(new Array(100000).fill(7));");
            assertTrue(e.contains("script stopped: it held more than 16 MiB of memory"), e);
            assertEquals("2\n", small.ok("js keep = null; 1 + 1"));
        } finally {
            System.clearProperty("bufq.js.maxheap");
        }
    }

    /**
     * A SharedArrayBuffer lives off the heap, so a heap-only limit never saw it (5.3 GB of
     * them before "more than 1024 MiB"). Bounded here: 24 of 8 MiB at most, then a spin the time
     * limit would end; the memory limit of 64 MiB must come first.
     */
    @Test
    void offHeapBuffersCountTowardsTheMemoryLimit() throws Exception {
        h.close();
        System.setProperty("bufq.js.maxheap", Long.toString(64L << 20));
        try (Harness small = new Harness().load(Harness.seed(0))) {
            small.ok("set timeout 20");
            assertEquals("0\n", small.ok("js 0"));
            System.gc();
            String e = small.fails("js let shared = []; for (let i = 0; i < 24; i++) shared.push(new SharedArrayBuffer(8 << 20));"
                    + " while (true) {}");
            assertTrue(e.contains("script stopped: it held more than 64 MiB of memory"), e);
            assertEquals("2\n", small.ok("js shared = null; 1 + 1"));
        } finally {
            System.clearProperty("bufq.js.maxheap");
        }
    }

    @Test
    void ctrlCInterruptsTheRunningScript() throws Exception {
        h.ok("set timeout 0");
        AtomicReference<Status> st = new AtomicReference<>();
        Thread t = new Thread(() -> st.set(h.run("js printErr('looping'); for (;;) {}")));
        t.start();
        h.err.await("looping");
        assertTrue(t.isAlive(), "still looping without a limit");
        t.interrupt(); // what the REPL does on Ctrl-C
        t.join(10_000);
        assertFalse(t.isAlive());
        assertEquals(Status.ERROR, st.get());
        assertTrue(h.err().contains("script cancelled"), h.err());
        assertEquals("2\n", h.ok("js 1 + 1"));
    }

    @Test
    void ctrlCDuringCheckCancelsTheCommandWithoutAReport() throws Exception {
        h.ok("set timeout 0");
        h.ok("js bufq.check('slow', (m, report) => { printErr('looping'); for (;;) {} })");
        h.clear();
        AtomicReference<Status> st = new AtomicReference<>();
        Thread t = new Thread(() -> st.set(h.run("check")));
        t.start();
        h.err.await("looping");
        t.interrupt(); // what the REPL does on Ctrl-C
        t.join(10_000);
        assertFalse(t.isAlive());
        assertEquals(Status.ERROR, st.get());
        assertTrue(h.err().contains("error: cancelled (Ctrl-C)"), h.err());
        assertFalse(h.err().contains("script cancelled") || h.err().contains("1 error"), "no finding for the stopped check: " + h.err());
        assertFalse(h.out().contains("check "), "no report: " + h.out());
        assertEquals("2\n", h.ok("js 1 + 1"), "the shell goes on");
    }

    @Test
    void cancelFromAnotherThread() throws Exception {
        h.ok("set timeout 0");
        Thread t = new Thread(() -> h.run("js printErr('looping'); for (;;) {}"));
        t.start();
        h.err.await("looping");
        h.shell.scripts().cancel();
        t.join(10_000);
        assertFalse(t.isAlive());
        assertTrue(h.err().contains("script cancelled"), h.err());
    }

    @Test
    void aContextThatMustBeClosedIsReplacedAndSaysWhatWasLost() throws Exception {
        h.ok("set timeout 0");
        h.ok("js bufq.field('values', 'twice', r => r.size * 2, {type: 'int'})");
        h.ok("js bufq.check('always', (m, report) => report.info('x', 'ran'))");
        Thread t = new Thread(() -> h.run("js printErr('looping'); for (;;) {}"));
        t.start();
        h.err.await("looping");
        ((Scripts) h.shell.scripts()).currentHost().kill(); // what the watchdog does when an interrupt is ignored
        t.join(10_000);
        assertFalse(t.isAlive());
        assertTrue(h.err().contains("script cancelled"), h.err());
        assertTrue(h.err().contains("the JavaScript engine was reset: check 'always' fails until its script runs again"), h.err());
        assertEquals("2\n", h.ok("js 1 + 1"), "a fresh context");
        // Kept, and failing: a CI check that a reset emptied would pass with fewer checks.
        assertEquals(List.of("always"), h.shell.scriptChecks().stream().map(c -> c.name()).toList());
        h.clear();
        assertEquals(Status.ERROR, h.run("check"));
        assertTrue(h.out().contains("the JavaScript engine was stopped; run the script again"), h.out() + h.err());
        h.ok("js bufq.check('always', (m, report) => report.info('x', 'ran again'))");
        h.clear();
        assertEquals(Status.OK, h.run("check"), "run again, the check replaces the failing one: " + h.out());
        String e = h.fails("values show twice");
        assertTrue(e.contains("run the script again"), e);
    }

    @Test
    void swallowingTheStopDoesNotEscapeIt() {
        h.ok("js bufq.field('values', 'spin', r => { while (true) {} }, {type: 'int'})");
        h.ok("set timeout 0.2");
        String e = h.fails("js for (;;) { try { bufq.module.values[0].spin } catch (x) {} }");
        assertTrue(e.contains("script stopped after the 0.2 s time limit"), e);
        e = h.fails("js bufq.field('values', 'spin2', r => { while (true) {} })");
        assertTrue(e.contains("time limit"), "type inference runs under the limit too: " + e);
    }
}
