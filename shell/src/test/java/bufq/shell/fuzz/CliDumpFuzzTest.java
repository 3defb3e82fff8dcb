package bufq.shell.fuzz;

import bufq.shell.cli.Bufq;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged dumps through the real entry point: {@code bufq -c peak FILE} answers with
 * exit 0 (warnings on stderr, one line each), 1 (a command's one-line error) or 3 with exactly one
 * line naming the file; never an internal error, never a hang. Seeded like the reader's fuzzer
 * ({@code -Dbufq.fuzz.seed=N}).
 */
class CliDumpFuzzTest {
    @TempDir Path tmp;

    record Run(int code, String out, String err) {}

    private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "cli-fuzz");
        t.setDaemon(true);
        return t;
    });

    static Run bufq(String what, String... args) throws Exception {
        Future<Run> f = POOL.submit(() -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            Bufq b = new Bufq(new Env(Map.of(), false, false), DefaultEngine::new, in -> {
                throw new AssertionError("no terminal here");
            });
            int code = b.run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        });
        try {
            return f.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("no answer within 60 s (a hang?): " + what);
        }
    }

    /** Judges one run; {@code file} is the path given on the command line. */
    static void judge(String what, Run r, Path file) {
        String ctx = what + "\nexit " + r.code + "\nstderr:\n" + r.err.replace("\r", "\\r").replace("\033", "\\e");
        assertTrue(!r.err.contains("internal error") && !r.err.contains("\tat "), ctx);
        List<String> lines = r.err.isEmpty() ? List.of() : Arrays.asList(r.err.split("\n", -1)).subList(0, r.err.split("\n", -1).length - 1);
        assertTrue(r.err.isEmpty() || r.err.endsWith("\n"), ctx);
        switch (r.code) {
            case ExitCode.OK -> {
                // Warnings, and information such as check's summary line; no error.
                for (String l : lines) assertTrue(!l.startsWith("error: ") && !l.startsWith("bufq: ") || l.startsWith("bufq: warning: "), ctx);
            }
            case ExitCode.FAILED -> {
                // A command's one-line error, or 'check' reporting errors in the dump (its table on stdout).
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("error: ")) || r.out.contains("error"), ctx);
            }
            case ExitCode.LOAD -> {
                assertEquals(1, lines.size(), ctx);
                assertTrue(lines.get(0).startsWith("bufq: " + file.getParent()), ctx);
                assertTrue(lines.get(0).matches("bufq: [^:]+(:\\d+)?: .+"), ctx);
                assertEquals("", r.out, ctx);
            }
            default -> throw new AssertionError("exit code " + r.code + ": " + ctx);
        }
    }

    private Path write(String dir, String name, byte[] b) throws Exception {
        Path d = Files.createDirectories(tmp.resolve(dir));
        return Files.write(d.resolve(name), b);
    }

    static final String NAME = "module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt";

    @Test
    void hostileFilesExitWithCodeThreeAndOneLine() throws Exception {
        byte[] bin = new byte[2048];
        new Random(3).nextBytes(bin);
        bin[5] = 0;
        byte[] huge = new byte[50 << 20];
        Arrays.fill(huge, (byte) 'x');
        Object[][] cases = {
            {"empty", new byte[0], "empty file, not a buffer-assignment dump"},
            {"binary", bin, "binary file (a NUL byte at column 6)"},
            {"latin-1", "BufferAssignment:\nallocation 0: size 4, caf\u00e9:\n".getBytes(StandardCharsets.ISO_8859_1), ":2: not UTF-8 text"},
            {"hlo", "HloModule m\n".getBytes(StandardCharsets.UTF_8), ":1: HLO text"},
            {"fifty-megabyte line", huge, ":1: not a buffer-assignment dump (expected 'BufferAssignment:', found 'xxxx"},
        };
        for (Object[] c : cases) {
            Path p = write((String) c[0], NAME, (byte[]) c[1]);
            Run r = bufq((String) c[0], "-c", "peak", p.toString());
            judge((String) c[0], r, p);
            assertEquals(ExitCode.LOAD, r.code, c[0] + ": " + r.err);
            assertTrue(r.err.contains((String) c[2]), c[0] + ": " + r.err);
        }
    }

    @Test
    void damagedExamplesThroughTheEntryPoint() throws Exception {
        long seed = Seeds.seed();
        Path root = Path.of(System.getProperty("bufq.root", ".."));
        List<Path> sources = new ArrayList<>();
        try (var s = Files.list(root.resolve("examples/seeds"))) { s.sorted().forEach(sources::add); }
        try (var s = Files.list(root.resolve("examples/jax-mlp"))) { s.sorted().forEach(sources::add); }
        assertTrue(sources.size() >= 6, "examples not found under " + root);
        Random r = new Random(seed);
        String[] commands = {"peak", "check", "summary", "values where live at peak limit 3", "timeline", "fragmentation"};
        int cases = Seeds.cases(60);
        long t0 = System.currentTimeMillis();
        int n = 0;
        for (; n < cases; n++) {
            Seeds.safetyNet(t0, n, cases, seed);
            Path src = sources.get(r.nextInt(sources.size()));
            byte[] b = damage(Files.readAllBytes(src), r);
            Path p = write("case-" + n, src.getFileName().toString(), b);
            String cmd = commands[r.nextInt(commands.length)];
            String what = "case " + n + " (" + src.getFileName() + ", -c '" + cmd + "'), seed " + seed
                    + " (replay: -Dbufq.fuzz.seed=" + seed + ")";
            judge(what, bufq(what, "-c", cmd, p.toString()), p);
        }
        System.out.println("cli dump fuzz: " + n + " cases, seed " + seed);
    }

    /** Truncation, a flipped byte, a deleted or duplicated line, an extreme number, CRLF. */
    static byte[] damage(byte[] in, Random r) {
        String s = new String(in, StandardCharsets.ISO_8859_1);
        for (int k = 1 + r.nextInt(3); k > 0 && !s.isEmpty(); k--) {
            int at = r.nextInt(s.length());
            int ls = s.lastIndexOf('\n', at) + 1, le = s.indexOf('\n', ls);
            if (le < 0) le = s.length();
            s = switch (r.nextInt(6)) {
                case 0 -> s.substring(0, at);
                case 1 -> s.substring(0, at) + (char) ((s.charAt(at) ^ (1 + r.nextInt(255))) & 0xff) + s.substring(at + 1);
                case 2 -> s.substring(0, ls) + s.substring(Math.min(s.length(), le + 1));
                case 3 -> s.substring(0, le) + "\n" + s.substring(ls, le) + s.substring(le);
                case 4 -> s.replaceFirst("\\d+", r.nextBoolean() ? "9223372036854775807" : "-1");
                default -> s.replace("\n", "\r\n");
            };
        }
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
