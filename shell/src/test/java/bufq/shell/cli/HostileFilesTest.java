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
        assertEquals(ExitCode.USAGE, r.code(), "-f with an unreadable script is a usage error, .js as .bq: " + r.err());
        assertEquals(3, r.err().split("not a regular file \\(a FIFO, device or socket\\), not a script", -1).length - 1, r.err());
        assertTrue(r.err().contains("bufq: cannot read script " + js + ": not a regular file"), r.err());
        r = run("--no-init", "-f", dir.resolve("missing.js").toString());
        assertEquals(ExitCode.USAGE, r.code(), r.err());
        assertEquals("bufq: cannot read script " + dir.resolve("missing.js") + ": no such file\n", r.err());
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

    /** Writes {@code parts} gzipped (fast level: these bombs are big) as a buffer-assignment file named {@code name}. */
    private Path gzip(String name, byte[]... parts) throws Exception {
        Path p = dir.resolve(name + "-buffer-assignment.txt.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(p), 1 << 16) {{ def.setLevel(1); }}) {
            for (byte[] part : parts) o.write(part);
        }
        return p;
    }

    /** {@code times} copies of {@code text}, one array. */
    private static byte[] repeat(String text, int times) {
        return text.repeat(times).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aGzipBombIsRefusedAtItsBound() throws Exception {
        // 70 MiB of dump-like text in about 300 KB: past 64 MiB it inflates far more than 50 times.
        String line = "value: <12 fusion.3 @0> (size=4096,offset=0): f32[1024]{0}\n";
        Path bomb = gzip("module_0000.jit_f.cpu_after_optimizations", repeat("BufferAssignment:\n", 1),
                repeat(line, (70 << 20) / line.length()));
        Result r = run("--no-init", "-c", "summary", bomb.toString());
        assertEquals(ExitCode.LOAD, r.code(), r.err());
        assertTrue(r.err().matches("(?s).*\\Q" + bomb + ": inflates more than 50 times: its first \\E[0-9.]+KiB gave [0-9.]+MiB "
                + "\\Q(dumps compress 5 to 15 times; past 64.0MiB a .gz may not inflate more than 50 times): refused as a gzip bomb\\E.*"),
                r.err());
    }

    @Test
    void aGzipBombIsRefusedBeforeItsIncompressibleTailIsRead() throws Exception {
        // The bound is on the bytes read so far, not the file's size: 2 MB of noise at the end
        // (which would allow 100 MiB) does not buy the 66 MiB of repeats before it.
        byte[] noise = new byte[2 << 20];
        java.util.Random rnd = new java.util.Random(17);
        for (int i = 0; i < noise.length; i++) noise[i] = (byte) (i % 80 == 79 ? '\n' : 'a' + rnd.nextInt(26));
        Path bomb = gzip("module_0001.jit_f.cpu_after_optimizations", repeat("BufferAssignment:\n", 1),
                repeat("allocation 0: size 4, parameter 0, shape |f32[]| at ShapeIndex {}:\n", 1 << 20), noise);
        Result r = run("--no-init", "-c", "summary", bomb.toString());
        assertEquals(ExitCode.LOAD, r.code(), r.err());
        assertTrue(r.err().contains(bomb + ": inflates more than 50 times: its first "), r.err());
    }

    @Test
    void aGzipBombIsJudgedByItsHeadBeforeItIsInflated() throws Exception {
        Path zeros = gzip("module_0002.jit_f.cpu_after_optimizations", new byte[70 << 20]);
        Result r = run("--no-init", "-c", "summary", zeros.toString());
        assertEquals(ExitCode.LOAD, r.code(), r.err());
        assertTrue(r.err().contains(zeros + ":1: binary file (a NUL byte at column 1), not a buffer-assignment dump"), r.err());

        Path text = gzip("module_0003.jit_f.cpu_after_optimizations", repeat("x", 70 << 20));
        r = run("--no-init", "-c", "summary", text.toString());
        assertEquals(ExitCode.LOAD, r.code(), r.err());
        assertTrue(r.err().contains(text + ":1: not a buffer-assignment dump (expected 'BufferAssignment:', found 'xxx"), r.err());
    }

    @Test
    void aFifoBesideADumpInALoadedDirectoryIsNamedAndNotCounted() throws Exception {
        Path m = Files.createDirectory(dir.resolve("m"));
        Path mlp = Path.of(System.getProperty("bufq.root", "..")).resolve("examples/jax-mlp");
        try (var files = Files.list(mlp)) {
            for (Path f : files.toList()) {
                if (!f.getFileName().toString().endsWith("-memory-usage-report.txt")) Files.copy(f, m.resolve(f.getFileName()));
            }
        }
        Path report = fifo("m/module_0000.jit_f.cpu_after_optimizations-memory-usage-report.txt");
        Result r = run("--no-init", "--format", "csv", "-c", "summary", m.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.err().contains(report + ": not a regular file (a FIFO, device or socket), not a dump; file skipped"), r.err());
        assertTrue(r.out().contains("\njit_f,jit_f,true,cpu,3,"), "the three files read, not the skipped one: " + r.out());
    }
}
