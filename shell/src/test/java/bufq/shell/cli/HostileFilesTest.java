package bufq.shell.cli;

import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Files that would hang or fill the heap: FIFOs given as a dump, a script or a JavaScript file,
 * devices, an endless line on stdin, a gzip bomb. Each is refused by name with a bound on the work.
 */
class HostileFilesTest {
    @TempDir Path dir;

    record Result(int code, String out, String err) {}

    /** The real entry point; the preemptive timeout only guards against a hang, it measures nothing. */
    static Result run(InputStream stdin, String... args) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int code = new Bufq(new Env(Map.of(), false), DefaultEngine::new, in -> { throw new AssertionError("no REPL"); })
                    .run(args, stdin, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        });
    }

    static Result run(String... args) { return run(new ByteArrayInputStream(new byte[0]), args); }

    private Path fifo(String name) throws Exception {
        Path p = dir.resolve(name);
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor(), "mkfifo");
        return p;
    }

    @Test
    void aFifoNamedAsADumpIsRefusedByName() throws Exception {
        Path f = fifo("module_0000.jit_f.cpu_after_optimizations-buffer-assignment.txt");
        Result r = run("--no-init", "-c", "summary", f.toString());
        assertEquals(ExitCode.LOAD, r.code(), r.err());
        assertTrue(r.err().contains(f + ": not a regular file (a FIFO, device or socket), not a dump"), r.err());
    }

    @Test
    void aFifoAsAScriptIsRefusedByName() throws Exception {
        Path bq = fifo("fifo.bq");
        Result r = run("--no-init", "-f", bq.toString());
        assertEquals(ExitCode.USAGE, r.code(), r.err());
        assertTrue(r.err().contains("cannot read script " + bq + ": not a regular file (a FIFO, device or socket), not a script"), r.err());
        Path js = fifo("fifo.js");
        r = run("--no-init", "-c", "run " + js, "-c", "run " + bq, "-f", js.toString());
        assertEquals(ExitCode.FAILED, r.code(), r.err());
        assertEquals(3, r.err().split("not a regular file \\(a FIFO, device or socket\\), not a script", -1).length - 1, r.err());
    }

    @Test
    void devicesAreRefusedAtOnce() {
        Result r = run("--no-init", "-f", "/dev/zero");
        assertEquals(ExitCode.USAGE, r.code());
        assertTrue(r.err().contains("cannot read script /dev/zero: not a regular file"), r.err());
        r = run("--no-init", "-c", "summary", "/dev/zero");
        assertEquals(ExitCode.LOAD, r.code());
        assertTrue(r.err().contains("/dev/zero: not a regular file (a FIFO, device or socket), not a dump"), r.err());
        assertFalse(r.err().contains("empty file"), r.err());
    }

    @Test
    void anEndlessLineOnStdinIsRefusedAtTheLimit() {
        byte[] nul = new byte[1 << 16]; // NULs, as /dev/zero gives them
        Result r = run(new ByteArrayInputStream(nul), "--no-init");
        assertTrue(r.err().contains("stdin: binary data at line 1, not a script; stopped"), r.err());
        byte[] line = new byte[(1 << 20) + 10];
        Arrays.fill(line, (byte) 'x');
        r = run(new ByteArrayInputStream(line), "--no-init");
        assertEquals(ExitCode.USAGE, r.code(), r.err());
        assertTrue(r.err().contains("stdin: line 1 is longer than 1 Mi characters, not a script; stopped"), r.err());
    }

    @Test
    void aGzipBombIsRefusedAtItsBound() throws Exception {
        Path bomb = dir.resolve("module_0000.jit_f.cpu_after_optimizations-buffer-assignment.txt.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(bomb))) {
            byte[] chunk = ("BufferAssignment:\n" + "a".repeat(1 << 20)).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 100; i++) o.write(chunk); // 100 MiB of text in about 100 KB
        }
        Result r = run("--no-init", "-c", "summary", bomb.toString());
        assertEquals(ExitCode.LOAD, r.code(), r.err());
        assertTrue(r.err().contains(bomb + ": inflates to more than 64 MiB (50 times its size, at least 64 MiB): refused as a gzip bomb"), r.err());
    }
}
