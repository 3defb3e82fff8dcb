package bufq.fuzz;

import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.dump.file.LoadException;
import bufq.dump.TinyDump;
import bufq.model.LoadWarning;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hostile files, one by one (empty, binary, a single 50 MB line, sizes that
 * overflow) and the regressions the dump fuzzer found, each as a fixed case.
 */
class HostileDumpsTest {
    static final String NAME = TinyDump.NAME;
    static final String VALUES = "module_0001.jit_f.cpu_after_optimizations-buffer-assignment-values.txt";

    static final String HEAD = TinyDump.ASSIGNMENT;

    @TempDir Path dir;

    private Path write(String name, byte[] bytes) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static Object load(Path p) {
        Fuzz.Outcome<List<HloModule>> o = Fuzz.bounded(p.toString(), 60_000, () -> DumpLoader.load(List.of(p)));
        if (o.thrown() == null) return o.value().get(0);
        if (o.thrown() instanceof LoadException e) {
            assertFalse(e.getMessage().contains("\n") || e.getMessage().contains("\r"), e.getMessage());
            assertTrue(e.getMessage().startsWith(e.file() + ":") && e.file().startsWith(p.getParent().toString()), e.getMessage());
            return e;
        }
        throw new AssertionError("unexpected " + o.thrown(), o.thrown());
    }

    private static LoadException refused(Object o) {
        if (o instanceof LoadException e) return e;
        throw new AssertionError("expected a refusal, loaded " + o);
    }

    private static HloModule loaded(Object o) {
        if (o instanceof HloModule m) return m;
        throw new AssertionError("expected a module: " + ((LoadException) o).getMessage());
    }

    @Test
    void emptyFile() throws Exception {
        LoadException e = refused(load(write(NAME, new byte[0])));
        assertEquals("empty file, not a buffer-assignment dump", e.reason());
    }

    @Test
    void binaryFileNamesTheLineOfItsFirstNul() throws Exception {
        byte[] b = new byte[4096];
        new Random(7).nextBytes(b);
        b[0] = 'a';
        b[1] = '\n';
        b[2] = 'b';
        b[3] = 0;
        LoadException e = refused(load(write(NAME, b)));
        assertEquals(2, e.line());
        assertTrue(e.reason().startsWith("binary file (a NUL byte at column 2)"), e.reason());
    }

    @Test
    void invalidUtf8NamesLineAndColumn() throws Exception {
        byte[] head = HEAD.getBytes(StandardCharsets.UTF_8);
        byte[] b = Arrays.copyOf(head, head.length + 3);
        int at = HEAD.indexOf("neg.2") + 1;   // inside line 5
        System.arraycopy(head, at, b, at + 1, head.length - at);
        b[at] = (byte) 0xff;
        LoadException e = refused(load(write(NAME, Arrays.copyOf(b, head.length + 1))));
        assertEquals(5, e.line());
        assertTrue(e.reason().startsWith("not UTF-8 text (byte 0xff at column 13)"), e.reason());
    }

    /** Regression (found by the dump fuzzer): a CR-only file put a carriage return in the message. */
    @Test
    void carriageReturnsNeverReachTheMessage() throws Exception {
        LoadException e = refused(load(write(NAME, "6:tuple.149.0\rallocation 0: size 1:\r".getBytes(StandardCharsets.UTF_8))));
        assertTrue(e.getMessage().endsWith("found '6:tuple.149.0\\rallocation 0: size 1:\\r')"), e.getMessage());
    }

    /**
     * Regression (found by the dump fuzzer): a bad sibling read on another thread escaped as a
     * CompletionException instead of its LoadException. Now the sibling is skipped with
     * a warning naming it, and the module is read from the other file.
     */
    @Test
    void aBadSiblingIsAWarningNamingIt() throws Exception {
        write(NAME, HEAD.getBytes(StandardCharsets.UTF_8));
        Path values = write(VALUES, new byte[] {'U', 's', (byte) 0xc3, '(', '\n'});
        HloModule m = loaded(load(dir.resolve(NAME)));
        LoadWarning w = m.warnings().get(0);
        assertEquals(values.toString(), w.file());
        assertEquals(1, w.line());
        assertTrue(w.message().startsWith("not UTF-8 text (byte 0xc3 at column 3), not a buffer-assignment values file;"
                + " file skipped"), w.message());
    }

    @Test
    void aFiftyMegabyteLineOfNothing() throws Exception {
        byte[] b = new byte[50 << 20];
        Arrays.fill(b, (byte) 'x');
        LoadException e = refused(load(write(NAME, b)));
        assertEquals(1, e.line());
        assertTrue(e.reason().length() < 200, e.reason());
    }

    @Test
    void aFiftyMegabyteInstructionLineLoads() throws Exception {
        String line = " from instruction: %x.1 = f32[8]{0} constant({" + "1,".repeat(25 << 20) + "1})\n";
        String text = HEAD + "\nUsed values:\n<0 x.1 @0>\n positions:\n  x.1\n uses:\n" + line;
        HloModule m = loaded(load(write(NAME, text.getBytes(StandardCharsets.US_ASCII))));
        assertEquals(2, m.values().size());
    }

    @Test
    void aFiftyMegabyteNumberIsAWarning() throws Exception {
        String text = HEAD.replace("allocation 1: size 32,", "allocation 1: size " + "9".repeat(50 << 20) + ",");
        HloModule m = loaded(load(write(NAME, text.getBytes(StandardCharsets.US_ASCII))));
        LoadWarning w = m.warnings().get(0);
        assertEquals(4, w.line());
        assertTrue(w.message().contains("too large for 64 bits") && w.message().length() < 200, w.message());
    }

    /** Sizes at the 64-bit edge: refused where they enter, so no later sum can wrap. */
    @Test
    void overflowingSizesAreCaughtWhereTheyEnter() throws Exception {
        String text = HEAD.replace("allocation 1: size 32,", "allocation 1: size 9223372036854775807,")
                .replace("(size=32,offset=0): f32[8]{0}\nallocation 1", "(size=32,offset=9223372036854775800): f32[8]{0}\nallocation 1");
        HloModule m = loaded(load(write(NAME, text.getBytes(StandardCharsets.US_ASCII))));
        assertEquals(List.of(3L, 4L), m.warnings().stream().map(LoadWarning::line).toList(), m.warnings().toString());
        assertTrue(m.warnings().get(0).message().contains("offset 9223372036854775800 is more than 2^56 bytes"), m.warnings().toString());
        assertTrue(m.warnings().get(1).message().contains("size 9223372036854775807 is more than 2^56 bytes"), m.warnings().toString());
        assertEquals(32, m.totalBytes());
    }

    @Test
    void sizesThatAddUpPastTheBoundAreCaught() throws Exception {
        StringBuilder b = new StringBuilder("BufferAssignment:\n");
        for (int i = 0; i < 40; i++) b.append("allocation ").append(i).append(": size ").append(1L << 56).append(":\n");
        HloModule m = loaded(load(write(NAME, b.toString().getBytes(StandardCharsets.US_ASCII))));
        assertEquals(32, m.allocations().size());
        assertEquals(8, m.warningCount());
        assertEquals(34, m.warnings().get(0).line());
        assertTrue(m.warnings().get(0).message().contains("allocation 32's size brings this module's sizes past 2^61 bytes"),
                m.warnings().get(0).message());
        assertEquals(1L << 61, m.totalBytes());
    }

    @Test
    void aShapeWhoseSizeOverflowsIsAWarning() throws Exception {
        String text = HEAD.replace("(size=32,offset=0): f32[8]{0}\nallocation 1", "(size=32,offset=0): f32[4611686018427387904]{0}\nallocation 1");
        HloModule m = loaded(load(write(NAME, text.getBytes(StandardCharsets.US_ASCII))));
        assertEquals(3, m.warnings().get(0).line());
        assertTrue(m.warnings().get(0).message().contains("overflows 64 bits"), m.warnings().toString());
        assertNull(m.value(0));
    }

    @Test
    void crlfLineEndingsLoadCleanly() throws Exception {
        HloModule m = loaded(load(write(NAME, HEAD.replace("\n", "\r\n").getBytes(StandardCharsets.US_ASCII))));
        assertEquals(0, m.warningCount(), m.warnings().toString());
        assertEquals(64, m.totalBytes());
    }

    /** Regression (large-directory test): an interrupted read said "cannot read: null". */
    @Test
    void anInterruptedReadSaysCancelled() throws Exception {
        Path p = write(NAME, HEAD.getBytes(StandardCharsets.US_ASCII));
        Thread.currentThread().interrupt();
        try {
            LoadException e = org.junit.jupiter.api.Assertions.assertThrows(LoadException.class, () -> DumpLoader.load(List.of(p)));
            assertEquals(p + ": cancelled", e.getMessage());
            LoadException d = org.junit.jupiter.api.Assertions.assertThrows(LoadException.class, () -> DumpLoader.load(List.of(dir)));
            assertEquals(dir + ": cancelled", d.getMessage());
        } finally {
            Thread.interrupted();
        }
    }

    /** A damaged {@code .gz}: cut anywhere or with flipped bytes, it loads what it holds or is refused in one line. */
    @Test
    void damagedGzipFiles() throws Exception {
        java.io.ByteArrayOutputStream z = new java.io.ByteArrayOutputStream();
        try (var gz = new java.util.zip.GZIPOutputStream(z)) {
            gz.write((HEAD + "\n").repeat(1).getBytes(StandardCharsets.US_ASCII));
        }
        byte[] good = z.toByteArray();
        Random r = new Random(Fuzz.seed());
        DumpFuzzTest.Tally tally = new DumpFuzzTest.Tally();
        for (int n = 0; n < 60; n++) {
            byte[] b = n % 2 == 0 ? Arrays.copyOf(good, r.nextInt(good.length)) : good.clone();
            if (n % 2 == 1) for (int k = 1 + r.nextInt(4); k > 0; k--) b[r.nextInt(b.length)] ^= (byte) (1 + r.nextInt(255));
            Path d = Files.createDirectories(dir.resolve("gz" + n));
            Path p = Files.write(d.resolve(NAME + ".gz"), b);
            DumpFuzzTest.check("gzip case " + n + ", " + Fuzz.replay(Fuzz.seed()), p, b, tally);
        }
        assertTrue(tally.refused.values().stream().mapToInt(Integer::intValue).sum() > 0, tally.toString());
    }

    /** Regression (dump fuzz, seed 7119198174762): T and a range end at 2^31-1 made a negative-size per-step array. */
    @Test
    void aRangePastTheSequenceIsCutAtItsEnd() throws Exception {
        String live = "\n\nHloLiveRange (max 2147483647):\n  InstructionSequence:\n    0:x.1\n    1:neg.2\n  BufferLiveRange:\n"
                + "    x.1{}:0-2147483647\n    neg.2{}:1-2\n  Live ranges at 1 (peak):\n"
                + "    x.1{}: 32 bytes (cumulative: 32 bytes)\n    neg.2{}: 32 bytes (cumulative: 64 bytes)\n";
        HloModule m = loaded(load(write(NAME, (HEAD + live).getBytes(StandardCharsets.US_ASCII))));
        assertEquals(2, m.info().maxTime());
        assertEquals(3, Liveness.of(m).steps());
        assertEquals(2, m.value(0).range().end());
        assertTrue(m.warnings().stream().anyMatch(w -> w.line() == 15 && w.message().equals("live range ends at 2147483647, past the last step 2; cut there")),
                m.warnings().toString());
        DumpFuzzTest.exercise(m);
    }
}
