package bufq.dump;

import bufq.dump.file.LoadException;
import bufq.dump.text.Warnings;

import bufq.analysis.liveness.Liveness;

import bufq.model.LoadWarning;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Input the user can get wrong: refused with a one-line reason, or loaded with located warnings. */
class BadInputTest {
    static final String NAME = TinyDump.NAME;

    static final String GOOD = TinyDump.COMPLETE;

    static LoadException refused(String fixture) {
        LoadException e = assertThrows(LoadException.class, () -> DumpLoader.load(List.of(Fixtures.path(fixture))));
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertTrue(e.getMessage().startsWith(e.file()), e.getMessage());
        return e;
    }

    @Test
    void goodTextLoadsCleanly() throws Exception {
        HloModule m = DumpLoader.loadText(NAME, GOOD);
        assertEquals(0, m.warningCount(), () -> m.warnings().toString());
        assertEquals(64L, Liveness.of(m).liveBytes(1));
    }

    @Test
    void binaryFileIsRefused() {
        assertTrue(refused("binary.bin").reason().contains("binary"));
    }

    @Test
    void emptyFileIsRefused() {
        assertTrue(refused("empty.txt").reason().startsWith("empty file"));
    }

    @Test
    void hloTextIsRefused() {
        LoadException e = refused("hlo-text.txt");
        assertTrue(e.reason().startsWith("HLO text"), e.getMessage());
        assertEquals(1, e.line());
    }

    @Test
    void directoryWithoutDumpsIsRefused() {
        assertTrue(refused("empty-dir").reason().startsWith("no buffer-assignment dumps in"));
    }

    @Test
    void missingPathIsRefused() {
        assertTrue(refused("no-such-thing").reason().contains("no such file"));
    }

    @Test
    void hloTextUnderADumpNameIsRefused() {
        LoadException e = assertThrows(LoadException.class, () -> DumpLoader.loadText(NAME, "HloModule m\n\nENTRY %e {}\n"));
        assertEquals(NAME + ":1: HLO text, not a buffer-assignment dump (expected 'BufferAssignment:')", e.getMessage());
    }

    @Test
    void malformedLineIsAWarningAndLoadingGoesOn() throws Exception {
        String bad = GOOD.replace("allocation 1: size 32, output", "allocation 1: size thirty-two, output");
        HloModule m = DumpLoader.loadText(NAME, bad);
        assertTrue(m.warningCount() >= 1);
        LoadWarning w = m.warnings().get(0);
        assertEquals(NAME, w.file());
        assertEquals(4, w.line());
        assertTrue(w.message().contains("expected a number"), w.message());
        assertEquals(1, m.allocations().size());
        assertNotNull(m.valueByKey("x.1{}").range());
    }

    @Test
    void lineNumbersCountAcrossSections() throws Exception {
        String bad = GOOD.replace("    neg.2{}:1-2", "    neg.2{}:1-two");
        HloModule m = DumpLoader.loadText(NAME, bad);
        assertEquals(1, m.warningCount(), () -> m.warnings().toString());
        assertEquals(29, m.warnings().get(0).line());
    }

    @Test
    void aLiveRangeThatJoinsNoValueIsWarnedAtItsLine() throws Exception {
        HloModule m = DumpLoader.loadText(NAME, GOOD.replace(" value: <1 neg.2 @0>", " value: <1 neg.3 @0>"));
        assertEquals(1, m.warningCount(), () -> m.warnings().toString());
        assertEquals(29, m.warnings().get(0).line());
        assertEquals("live range of 'neg.2{}' matches no value in the allocation section", m.warnings().get(0).message());
    }

    @Test
    void sizesThatOverflowALongAreCaughtNotWrapped() throws Exception {
        String bad = GOOD.replace("allocation 0: size 32,", "allocation 0: size 99999999999999999999,");
        HloModule m = DumpLoader.loadText(NAME, bad);
        assertEquals(2, m.warnings().get(0).line());
        assertTrue(m.warnings().get(0).message().contains("too large"), m.warnings().get(0).message());
        assertTrue(m.allocations().stream().allMatch(a -> a.size() >= 0));
    }

    @Test
    void badShapeIsAWarning() throws Exception {
        String bad = GOOD.replace("(size=32,offset=0): f32[8]{0}\nallocation 1", "(size=32,offset=0): f32[8{0}\nallocation 1");
        HloModule m = DumpLoader.loadText(NAME, bad);
        assertTrue(m.warnings().stream().anyMatch(w -> w.line() == 3 && w.message().contains("shape")), m.warnings().toString());
    }

    @Test
    void truncatedFileLoadsWhatItHolds() throws Exception {
        int cut = GOOD.indexOf("    neg.2{}:1-2") + 8;
        HloModule m = DumpLoader.loadText(NAME, GOOD.substring(0, cut));
        assertEquals(NAME + ":29", m.info().truncatedAt());
        assertTrue(m.warningCount() >= 1);
        assertEquals(2, m.values().size());
        assertNotNull(m.valueByKey("x.1{}").range());
    }

    @Test
    void truncationAtALineBoundaryIsNoticed() throws Exception {
        // Cut after "  neg.2" in the positions of the last value block: the block has no instruction line.
        int cut = GOOD.indexOf("  neg.2\n uses:\n from") + "  neg.2\n".length();
        HloModule m = DumpLoader.loadText(NAME, GOOD.substring(0, cut));
        assertEquals(NAME + ":18", m.info().truncatedAt());
        assertEquals(2, m.values().size());
        // Cut inside the live-range section before its peak lines.
        int cut2 = GOOD.indexOf("  BufferLiveRange:");
        HloModule m2 = DumpLoader.loadText(NAME, GOOD.substring(0, cut2));
        assertEquals(NAME + ":26", m2.info().truncatedAt());
        assertEquals(2, m2.sequence().size());
    }

    @Test
    void absurdMaxTimeIsWarnedAndCutDown() throws Exception {
        HloModule m = DumpLoader.loadText(NAME, GOOD.replace("HloLiveRange (max 2):", "HloLiveRange (max 2000000000):"));
        assertEquals(1, m.warningCount(), () -> m.warnings().toString());
        assertEquals(23, m.warnings().get(0).line());
        assertEquals(2, m.info().maxTime());
        assertEquals(3, Liveness.of(m).steps());
    }

    @Test
    void warningsAreCappedButCounted() throws Exception {
        StringBuilder b = new StringBuilder("BufferAssignment:\n");
        for (int i = 0; i < 300; i++) b.append("allocation ").append(i).append(": size ?:\n");
        HloModule m = DumpLoader.loadText(NAME, b.toString());
        assertEquals(300, m.warningCount());
        assertEquals(Warnings.CAP, m.warnings().size());
    }

    @Test
    void gzipFilesAndTheirSiblingsLoad(@TempDir Path dir) throws Exception {
        Path src = Fixtures.path("jax010-mlp");
        try (var files = Files.list(src)) {
            for (Path f : files.toList()) {
                Path gz = dir.resolve(f.getFileName() + ".gz");
                try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
                    out.write(Files.readAllBytes(f));
                }
            }
        }
        Path one = dir.resolve("module_0012.jit_mlp.cpu_after_optimizations-live-range.txt.gz");
        List<HloModule> ms = DumpLoader.load(List.of(one));
        assertEquals(1, ms.size());
        assertEquals(4, ms.get(0).info().files().size());
        assertEquals(0, ms.get(0).warningCount());
        assertEquals(57600L, Liveness.of(ms.get(0)).liveBytes(3));
    }

    @Test
    void latin1HeadIsRefusedAndBadBytesLaterAreWarned(@TempDir Path dir) throws Exception {
        Path latin = dir.resolve(NAME);
        byte[] bad = GOOD.replace("BufferAssignment:", "BufferAssignment: caf\u00e9").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        Files.write(latin, bad);
        LoadException e = assertThrows(LoadException.class, () -> DumpLoader.load(List.of(latin)));
        assertTrue(e.reason().contains("UTF-8"), e.getMessage());

        // Past the head (8 KiB) a stray byte is a warning on its line, not a refusal.
        StringBuilder pad = new StringBuilder(GOOD.substring(0, GOOD.indexOf("\nTotal bytes used")));
        pad.append('\n');
        for (int i = 0; i < 400; i++) pad.append("allocation ").append(100 + i).append(": size 0:\n");
        String tail = GOOD.substring(GOOD.indexOf("\nTotal bytes used") + 1);
        byte[] head = pad.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] rest = tail.replace("from instruction: %neg.2", "from instruction: %neg.2 ").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Path mixed = dir.resolve("module_0002.jit_g.cpu_after_optimizations-buffer-assignment.txt");
        byte[] all = new byte[head.length + rest.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(rest, 0, all, head.length, rest.length);
        int at = head.length + tail.indexOf("%x.1 = f32[8]{0} parameter(0)") + 1;
        all[at] = (byte) 0xff;
        Files.write(mixed, all);
        HloModule m = DumpLoader.load(List.of(mixed)).get(0);
        // The byte is in the Used values section: its warning comes when the section is read.
        m.usedValues().read();
        assertTrue(m.warnings().stream().anyMatch(w -> w.message().contains("not UTF-8")), m.warnings().toString());
    }

    @Test
    void cutOffGzipLoadsWhatItHolds(@TempDir Path dir) throws Exception {
        java.io.ByteArrayOutputStream packed = new java.io.ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(packed)) {
            out.write(GOOD.repeat(1).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        byte[] all = packed.toByteArray();
        Path gz = dir.resolve(NAME + ".gz");
        Files.write(gz, java.util.Arrays.copyOf(all, all.length * 2 / 3));
        HloModule m = DumpLoader.load(List.of(gz)).get(0);
        assertNotNull(m.info().truncatedAt(), "truncatedAt");
        assertTrue(m.warnings().stream().anyMatch(w -> w.message().contains("truncated")), m.warnings().toString());
        assertFalse(m.allocations().isEmpty());
    }

    @Test
    void corruptGzipIsRefused(@TempDir Path dir) throws Exception {
        Path gz = dir.resolve("module_0001.jit_f.cpu_after_optimizations-buffer-assignment.txt.gz");
        Files.writeString(gz, "not gzip at all");
        LoadException e = assertThrows(LoadException.class, () -> DumpLoader.load(List.of(gz)));
        assertTrue(e.reason().contains("gzip"), e.getMessage());
    }

    @Test
    void anEmptyPathIsRefusedNotTakenForTheWorkingDirectory() {
        LoadException e = assertThrows(LoadException.class, () -> DumpLoader.load(List.of(Path.of(""))));
        assertEquals("'': empty path, expected a dump file or directory", e.getMessage());
    }

    /**
     * A four-file set whose allocation file also holds a Used values section (XLA writes none there;
     * the reader no longer looks for one): one located warning, and the module the set describes.
     */
    @Test
    void usedValuesInTheAllocationFileOfAFourFileSet(@TempDir Path dir) throws Exception {
        Path src = bufq.testing.Corpus.require("jax-0.10.2/transformer-2layer");
        Path allocations = null, values = null;
        try (var files = Files.list(src)) {
            for (Path f : files.toList()) {
                Path to = Files.copy(f, dir.resolve(f.getFileName()));
                String name = f.getFileName().toString();
                if (name.endsWith("-buffer-assignment.txt")) allocations = to;
                if (name.endsWith("-buffer-assignment-values.txt")) values = to;
            }
        }
        assertNotNull(allocations);
        assertNotNull(values);
        Files.write(allocations, Files.readAllBytes(values), java.nio.file.StandardOpenOption.APPEND);
        long usedLine = Files.readAllLines(allocations).indexOf("Used values:") + 1;
        HloModule whole = DumpLoader.load(List.of(src)).get(0);
        HloModule odd = DumpLoader.load(List.of(dir)).get(0);
        assertEquals(1, odd.warnings().size(), odd.warnings().toString());
        LoadWarning w = odd.warnings().get(0);
        assertTrue(usedLine > 1);
        assertTrue(w.toString().contains(allocations.getFileName() + ":" + usedLine + ":"), w.toString());
        assertTrue(w.toString().contains("'Used values:' section in the allocation file"), w.toString());
        assertEquals(whole.values().size(), odd.values().size());
        assertEquals(whole.allocations().size(), odd.allocations().size());
        assertEquals(Liveness.of(whole).peakBytes(), Liveness.of(odd).peakBytes());
        odd.usedValues().read();
        assertEquals(whole.instructions().size(), odd.instructions().size());
    }
}
