package bufq.shell.fuzz;

import bufq.shell.cli.Bufq;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.ModuleSet;
import bufq.shell.run.Shell;
import bufq.shell.session.Status;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A dump directory of 3,000 small modules through the real reader: {@code load DIR}
 * parses only the module it makes current; others are parsed on {@code use}, and at most
 * {@code ModuleSet.CACHE} of them stay in memory besides the current one, whatever is visited;
 * commands that read every module show progress on a terminal only, and stop on an interrupt
 * (the REPL's Ctrl-C) leaving the shell usable.
 */
class LargeDirectoryTest {
    static final int MODULES = 3_000;

    @TempDir static Path dir;

    static String module(int i) {
        long size = 32L * (1 + i % 7);
        return "BufferAssignment:\n"
                + "allocation 0: size " + size + ", parameter 0, shape |f32[" + size / 4 + "]| at ShapeIndex {}:\n"
                + " value: <0 p.1 @0> (size=" + size + ",offset=0): f32[" + size / 4 + "]{0}\n"
                + "allocation 1: size " + size + ", output shape is |f32[" + size / 4 + "]|, maybe-live-out:\n"
                + " value: <1 neg.2 @0> (size=" + size + ",offset=0): f32[" + size / 4 + "]{0}\n\n"
                + "Total bytes used: " + 2 * size + "\n\n"
                + "HloLiveRange (max 2):\n  InstructionSequence:\n    0:p.1\n    1:neg.2\n  BufferLiveRange:\n"
                + "    p.1{}:0-2\n    neg.2{}:1-2\n  Live ranges at 1 (peak):\n"
                + "    p.1{}: " + size + " bytes (cumulative: " + size + " bytes)\n"
                + "    neg.2{}: " + size + " bytes (cumulative: " + 2 * size + " bytes)\n";
    }

    @BeforeAll
    static void generate() throws Exception {
        for (int i = 0; i < MODULES; i++) {
            String name = String.format("module_%04d.jit_f%d.cpu_after_optimizations-buffer-assignment.txt", i, i);
            Files.writeString(dir.resolve(name), module(i));
        }
    }

    final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();

    Shell shell(boolean terminal) throws Exception {
        Shell s = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(errSink, true, StandardCharsets.UTF_8), new Env(Map.of(), terminal));
        assertEquals(Status.OK, s.execute("load " + dir), err());
        return s;
    }

    String err() { return err.toString(StandardCharsets.UTF_8); }

    /** Opens when the progress line on {@link #errSink} reaches module 20: a test waits on it instead of polling. */
    final CountDownLatch atModule20 = new CountDownLatch(1);
    final OutputStream errSink = new OutputStream() {
        @Override public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override public synchronized void write(byte[] b, int off, int len) {
            err.write(b, off, len);
            if (atModule20.getCount() > 0 && err().contains("\rreading module 20/" + MODULES + " ")) atModule20.countDown();
        }
    };

    static long inMemory(Shell s) {
        return s.modules().set().entries().stream().filter(e -> e.loaded() != null).count();
    }

    @Test
    void loadIsLazyAndMemoryStaysBounded() throws Exception {
        Shell s = shell(false);
        assertEquals(MODULES, s.modules().set().size());
        assertEquals(1, inMemory(s), "only the current module is parsed by load");
        assertEquals("jit_f0", s.current().handle());
        for (int i = MODULES - 1; i > 0; i -= 97) {
            assertEquals(Status.OK, s.execute("use jit_f" + i), err());
            assertEquals("jit_f" + i, s.current().handle());
            assertEquals(Status.OK, s.execute("values where live at peak show sum(size)"), err());
            assertTrue(inMemory(s) <= ModuleSet.CACHE + 1, inMemory(s) + " modules in memory");
        }
        out.reset();
        assertEquals(Status.OK, s.execute("format csv"), err());
        assertEquals(Status.OK, s.execute("summary"), err());
        assertEquals(MODULES + 1, out.toString(StandardCharsets.UTF_8).split("\n").length, "a row per module and a header");
        assertTrue(inMemory(s) <= ModuleSet.CACHE + 1, inMemory(s) + " modules in memory after reading all");
        assertFalse(err().contains("reading module"), "no progress line without a terminal: " + err());
    }

    /**
     * {@code modules} lists a big directory without reading it; its byte columns, like
     * backend and values, are empty for a module not in memory, and filled once one is read.
     */
    @Test
    void modulesListsWithoutReading() throws Exception {
        Shell s = shell(false);
        assertEquals(Status.OK, s.execute("format csv"), err());
        out.reset();
        assertEquals(Status.OK, s.execute("modules"), err());
        assertEquals(1, inMemory(s), "modules read modules besides the current one");
        List<String> rows = lines(out.toString(StandardCharsets.UTF_8));
        assertEquals(MODULES + 1, rows.size(), "a row per module and a header");
        assertTrue(rows.get(0).endsWith(",argument_bytes,output_bytes,alias_bytes,temp_bytes,code_bytes,needs_bytes,weights_bytes,optimizer_bytes,partitions,replicas"), rows.get(0));
        // jit_f0, read by load: size 32, one parameter and one output of 32 bytes each; no Used
        // values part, so its weights and optimizer state are unknown (empty, and a note says why)
        assertTrue(rows.get(1).startsWith("1,jit_f0,jit_f0,true,0000,cpu,2,true,") && rows.get(1).endsWith("module_0000.jit_f0.cpu_after_optimizations-buffer-assignment.txt],32,32,0,0,,64,,,1,1"),
                rows.get(1));
        assertTrue(rows.get(2).endsWith(",,false,[" + dir.resolve("module_0001.jit_f1.cpu_after_optimizations-buffer-assignment.txt") + "],,,,,,,,,,"),
                rows.get(2));
        // read by use: its columns show from then on (size 32 * 6 = 192)
        assertEquals(Status.OK, s.execute("use jit_f5"), err());
        out.reset();
        assertEquals(Status.OK, s.execute("modules"), err());
        assertTrue(lines(out.toString(StandardCharsets.UTF_8)).get(6).endsWith(",192,192,0,0,,384,,,1,1"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void progressOnATerminalAndAnInterruptCancels() throws Exception {
        Shell s = shell(true);
        AtomicReference<Status> result = new AtomicReference<>();
        Thread worker = new Thread(() -> result.set(s.execute("summary")), "summary");
        worker.start();
        assertTrue(atModule20.await(60, TimeUnit.SECONDS), "no progress line for module 20 on a terminal: " + err());
        worker.interrupt();
        worker.join(20_000);
        assertFalse(worker.isAlive(), "summary did not stop on interrupt");
        assertEquals(Status.ERROR, result.get());
        // Between modules the shell notices the interrupt; while one is read, the reader does: the
        // file reader names the file, the module reader (between regions) the module.
        assertTrue(err().contains("error: cancelled (Ctrl-C)") || err().contains(".txt: cancelled\n")
                || java.util.regex.Pattern.compile("jit_f\\d+: cancelled\n").matcher(err()).find(), err());
        assertFalse(err().contains("reading module " + MODULES + "/"), "stopped early: " + err().length());
        assertTrue(err().contains("\r\033[K"), "the progress line is cleared");
        // Still usable.
        out.reset();
        assertEquals(Status.OK, s.execute("use jit_f2999"), err());
        assertEquals(Status.OK, s.execute("values show count()"), err());
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("2"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anInterruptedLoadIsCancelled() throws Exception {
        Shell s = Bufq.shell(new DefaultEngine(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), true));
        Thread.currentThread().interrupt();
        Status st;
        try {
            st = s.execute("load " + dir);
        } finally {
            Thread.interrupted();
        }
        assertEquals(Status.ERROR, st);
        assertTrue(err().contains(dir + ": cancelled"), err());
        assertEquals(0, s.modules().set().size());
        assertEquals(Status.OK, s.execute("load " + dir), err());
        assertEquals(MODULES, s.modules().set().size());
    }

    static List<String> lines(String s) { return List.of(s.split("\n")); }
}
