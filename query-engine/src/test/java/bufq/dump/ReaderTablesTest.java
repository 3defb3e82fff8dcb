package bufq.dump;

import bufq.dump.text.TextReader;
import bufq.dump.file.LoadException;

import bufq.model.HloInstruction;
import bufq.util.IdTable;
import bufq.model.LoadWarning;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reader's module-level paths: stack trees, values split across regions, lazy parts. */
class ReaderTablesTest {

    static final String TREE = """
              Stack trace breakdown for peak usage: 64 bytes
                main (100.0%, total: 64 bytes, current: 0 bytes, remaining: 64 bytes)
                  ├── neg.2 (50.0%, total: 32 bytes, current: 32 bytes, remaining: 32 bytes)
                  └── x.1 (fifty, total: 32 bytes, current: 32 bytes, remaining: 0 bytes)
            """;

    @Test
    void stackTreeAfterTheRangesIsReadAndItsWarningsKeepTheirLines(@TempDir Path dir) throws Exception {
        String text = BadInputTest.GOOD + TREE;
        long badLine = text.substring(0, text.indexOf("└── x.1")).chars().filter(c -> c == '\n').count() + 1;
        Path file = dir.resolve(BadInputTest.NAME);
        Files.writeString(file, text);
        for (HloModule m : List.of(DumpLoader.loadText(BadInputTest.NAME, text), DumpLoader.load(List.of(file)).get(0))) {
            assertEquals(64, m.info().stackTraceBytes());
            assertNotNull(m.info().stackTrace());
            assertEquals("main", m.info().stackTrace().label());
            assertEquals(1, m.warnings().size(), m.warnings().toString());
            LoadWarning w = m.warnings().get(0);
            assertEquals(badLine, w.line(), w.toString());
            assertTrue(w.message().startsWith("expected 'label ("), w.message());
            // The ranges before the tree were read as usual.
            assertEquals(0, m.valueByKey("x.1").rangeStart());
            assertEquals(2, m.valueByKey("x.1").rangeEnd());
        }
    }

    /**
     * A whole-value range is joined through its start step's name when that is the value's own (most
     * are), else through the interner: a name that only begins like the step's, another step's name,
     * and an indexed key must each find their own value, from text and from a file's bytes alike.
     */
    @Test
    void rangesJoinWhetherOrNotTheirValueIsNamedAfterTheStartStep(@TempDir Path dir) throws Exception {
        String text = """
                BufferAssignment:
                allocation 0: size 64, maybe-live-out:
                 value: <0 a.1 @0> (size=16,offset=0): f32[4]{0}
                 value: <1 a.10 @0> (size=16,offset=16): f32[4]{0}
                 value: <2 b @0> (size=16,offset=32): f32[4]{0}
                 value: <3 c{1} @0> (size=16,offset=48): f32[4]{0}
                 value: <4 a.1000 @0> (size=16,offset=48): f32[4]{0}

                Total bytes used: 64

                HloLiveRange (max 3):
                  InstructionSequence:
                    0:a.1
                    1:a.10
                    2:b
                  BufferLiveRange:
                    a.10{}:0-1
                    a.1{}:0-2
                    c{1}:1-1
                    b:1-3
                    a.1000{}:2-2
                  Live ranges at 1 (peak):
                    a.1{}: 16 bytes
                """;
        Path file = dir.resolve(BadInputTest.NAME);
        Files.writeString(file, text);
        for (HloModule m : List.of(DumpLoader.loadText(BadInputTest.NAME, text), DumpLoader.load(List.of(file)).get(0))) {
            assertEquals(List.of(), m.warnings(), "every range joined");
            String[] keys = {"a.1", "a.10", "b", "c{1}", "a.1000"};
            int[][] want = {{0, 2}, {0, 1}, {1, 3}, {1, 1}, {2, 2}};
            for (int k = 0; k < keys.length; k++) {
                assertEquals(want[k][0], m.valueByKey(keys[k]).rangeStart(), keys[k]);
                assertEquals(want[k][1], m.valueByKey(keys[k]).rangeEnd(), keys[k]);
            }
        }
    }

    /**
     * A single-file dump of {@code n} values, each in an allocation of its own, with a Used values
     * block each: value i is {@code v.i}, positioned at itself and used by {@code user.i} as operand
     * {@code i % 3}. About 120 bytes a block, so a few thousand values take a region (a megabyte).
     */
    private static String manyValues(int n) {
        StringBuilder b = new StringBuilder("BufferAssignment:\n");
        for (int i = 0; i < n; i++) {
            b.append("allocation ").append(i).append(": size 16, maybe-live-out:\n");
            b.append(" value: <").append(i).append(" v.").append(i).append(" @0> (size=16,offset=0): f32[4]{0}\n");
        }
        b.append("\nTotal bytes used: ").append(16L * n).append("\n\nUsed values:\n");
        for (int i = 0; i < n; i++) {
            b.append('<').append(i).append(" v.").append(i).append(" @0>\n positions:\n  v.").append(i)
                    .append("\n uses:\n  user.").append(i).append(", operand ").append(i % 3)
                    .append("\n from instruction: %v.").append(i).append(" = f32[4]{0} parameter(").append(i).append(")\n");
        }
        return b.toString();
    }

    /**
     * A Used values section over several regions (a megabyte each) joins every block to its own
     * value: a later region's block index is its place in the whole section, not in its region.
     */
    @Test
    void positionsAndUsesOfASectionOfManyRegionsBelongToTheirValues(@TempDir Path dir) throws Exception {
        int n = 20_000;   // about 2.4 MB of blocks: three regions
        String text = manyValues(n);
        assertTrue(text.length() - text.indexOf("Used values:") > 2 * TextReader.CHUNK, "the section spans regions");
        Path file = dir.resolve(BadInputTest.NAME);
        Files.writeString(file, text);
        for (HloModule m : List.of(DumpLoader.load(List.of(file)).get(0), DumpLoader.loadText(BadInputTest.NAME, text))) {
            assertEquals(n, m.values().size());
            for (int i = 0; i < n; i += 97) {
                var v = m.value(i);
                assertEquals("v." + i, v.name());
                assertEquals(List.of(new bufq.model.HloPosition("v." + i, "{}")), v.positions(), "positions of v." + i);
                assertEquals(List.of(new bufq.model.HloUse("user." + i, i % 3, "{}")), v.uses(), "uses of v." + i);
            }
        }
        // The last block renumbered to block 5's id, two regions later: the warning names block 5's line.
        int last = n - 1;
        String renumbered = text.replace("\n<" + last + " v." + last + " @0>\n", "\n<5 v." + last + " @0>\n");
        Files.writeString(file, renumbered);
        HloModule m = DumpLoader.load(List.of(file)).get(0);
        m.usedValues().read();
        long block5 = lineOf(renumbered, "<5 v.5 @0>\n"), lastBlock = lineOf(renumbered, "<5 v." + last + " @0>\n");
        assertEquals(file + ":" + lastBlock + ": value id 5 was already used by the block at " + file + ":" + block5
                + "; ids must be unique (the later block's positions and uses are kept)", m.warnings().get(0).toString());
    }

    /** Bad lines megabytes into a section are warned about at their own lines, whichever region holds them. */
    @Test
    void warningsInLaterRegionsNameTheirLines(@TempDir Path dir) throws Exception {
        int n = 40_000;   // allocation lines about 3.4 MB, blocks about 5 MB: several regions each
        int badValue = n - 3, badBlock = n - 5;
        String text = manyValues(n)
                .replace(" value: <" + badValue + " v." + badValue + " @0> (size=16,", " value: <" + badValue + " v." + badValue + " @0> (size=x,")
                .replace("\n  user." + badBlock + ", operand ", "\n  user without operand\n  user." + badBlock + ", operand ");
        long valueLine = lineOf(text, " value: <" + badValue + " ");
        long blockLine = lineOf(text, "  user without operand");
        assertTrue(text.indexOf(" value: <" + badValue + " ") > 3 * TextReader.CHUNK, "past the third region");
        Path file = dir.resolve(BadInputTest.NAME);
        Files.writeString(file, text);
        HloModule m = DumpLoader.load(List.of(file)).get(0);
        m.usedValues().read();
        List<Long> lines = m.warnings().stream().map(LoadWarning::line).toList();
        assertEquals(List.of(valueLine, blockLine), lines, m.warnings().toString());
    }

    private static long lineOf(String text, String marker) {
        return text.substring(0, text.indexOf(marker)).chars().filter(c -> c == '\n').count() + 1;
    }

    @Test
    void instructionsKeepTheirFirstDefinitionAndWholeAttributes() throws Exception {
        String text = BadInputTest.GOOD
                .replace("%neg.2 = f32[8]{0} negate(%x.1)", "%neg.2 = f32[8]{0} negate(%x.1), metadata={op_name=\"jit(f)/neg\" source_file=\"f.py\" source_line=7}")
                .replace("%x.1 = f32[8]{0} parameter(0)", "%x.1 = f32[8]{0} parameter(0), sharding={replicated}, metadata={op_name=\"x\"}");
        HloModule m = DumpLoader.loadText(BadInputTest.NAME, text);
        HloInstruction neg = m.instruction("neg.2");
        assertEquals("metadata={op_name=\"jit(f)/neg\" source_file=\"f.py\" source_line=7}", neg.attributes());
        assertEquals("jit(f)/neg", neg.opName());
        assertEquals("f.py", neg.sourceFile());
        assertEquals(7, neg.sourceLine());
        assertEquals(1, neg.time());
        HloInstruction x = m.instruction("x.1");
        assertEquals("sharding={replicated}, metadata={op_name=\"x\"}", x.attributes());
        assertEquals("x", x.opName());
        assertEquals(0, x.time());
        assertEquals(List.of("x.1"), neg.operands());
    }

    @Test
    void anInterruptedLoadStopsWithCancelled() {
        Thread.currentThread().interrupt();   // as Ctrl-C in the REPL does to the loading thread
        try {
            LoadException e = org.junit.jupiter.api.Assertions.assertThrows(LoadException.class,
                    () -> DumpLoader.loadText(BadInputTest.NAME, BadInputTest.GOOD));
            assertTrue(e.getMessage().endsWith("cancelled"), e.getMessage());
        } finally {
            Thread.interrupted();
        }
    }
}
