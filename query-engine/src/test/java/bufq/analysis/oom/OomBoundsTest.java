package bufq.analysis.oom;

import bufq.units.PrintedSize;
import bufq.units.Units;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CancellationException;

import static bufq.analysis.oom.OomFamiliesTest.only;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile pastes: volume is bounded (distinct messages, repeats, warnings), Ctrl-C stops a
 * read, figures no byte count can be are refused with their line and column, and a message is
 * counted once however its neighbours read. Scale tests assert on counts, not time (bench/ times).
 */
class OomBoundsTest {
    @Test
    void aMillionDistinctMessagesKeepTheBoundAndSayWhatWasSkipped() {
        StringBuilder b = new StringBuilder(60 * 1_000_000);
        for (int i = 1; i <= 1_000_000; i++) b.append("RESOURCE_EXHAUSTED: Out of memory allocating ").append(i).append(" bytes.\n");
        OomText t = OomReader.read(b.toString());
        assertEquals(1_000_000, t.lines());
        assertEquals(OomReader.MAX_MESSAGES, t.messages().size());
        assertEquals(1L, t.messages().get(0).requested().low());
        assertEquals(1, t.warnings().size(), t.warnings().toString());
        assertEquals("line 1001: 999,000 more distinct messages from here not read (at most 1,000 are kept)",
                t.warnings().get(0).toString());
    }

    @Test
    void aMillionCopiesOfOneMessageAreOneRowCountingThem() {
        String line = "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 4608000000 bytes.\n";
        OomText t = OomReader.read(line.repeat(1_000_000));
        assertEquals(1, t.messages().size());
        OomMessage m = t.messages().get(0);
        assertEquals(1_000_000, m.times());
        assertEquals(FailureSet.MAX_REPEAT_LINES, m.repeats().size());
        assertEquals(2, m.repeats().get(0));
        assertEquals(List.of(2L, 3L, 4L, 5L, 6L), OomReport.alsoAt(m.repeats()));
    }

    @Test
    void ctrlCStopsARead() {
        String text = "RESOURCE_EXHAUSTED: Out of memory allocating 1 bytes.\n".repeat(10_000);
        Thread.currentThread().interrupt();
        try {
            assertThrows(CancellationException.class, () -> OomReader.read(text));
        } finally {
            assertTrue(Thread.interrupted(), "the interrupt is left for the caller to see");
        }
        // a read that is not interrupted finishes
        assertEquals(1, OomReader.read(text).messages().size());
    }

    @Test
    void numbersPast64BitsAreRefusedWithTheirColumn() {
        String line = "RESOURCE_EXHAUSTED: Out of memory allocating 99999999999999999999999 bytes.";
        OomText t = OomReader.read("noise\n" + line + "\n");
        OomMessage m = t.messages().get(0);
        assertNull(m.requested(), "never clamped to 9,223,372,036,854,775,807");
        assertTrue(t.allWarnings().stream().anyMatch(w -> w.toString().startsWith(
                "line 2: column " + (line.indexOf('9') + 1) + ": number too large for 64 bits (99999999999999999999999 bytes): figure not read")), t.allWarnings().toString());
        // a BFC Limit that large is no capacity, so fit is not told everything fits
        OomMessage bfc = only("""
                Allocator (GPU_0_bfc) ran out of memory trying to allocate 6.00MiB (rounded to 6291456)requested by op
                Stats:
                Limit:        99999999999999999999999
                InUse:        17179869184
                """);
        assertNull(bfc.capacity());
        assertEquals(17_179_869_184L, bfc.used().low());
        assertTrue(bfc.warnings().stream().anyMatch(w -> w.line() == 3 && w.message().startsWith("column 15: number too large")),
                bfc.warnings().toString());
        // a printed size past 2^63 - 1 likewise
        assertNull(Units.printedOrNull("9.00E"));
    }

    @Test
    void negativeSizesAreRefused() {
        String line = "RESOURCE_EXHAUSTED: Failed to allocate request for -4,608,000,000 B on device ordinal 0";
        OomText t = OomReader.read(line + "\n");
        assertNull(t.messages().get(0).requested());
        assertTrue(t.allWarnings().stream().anyMatch(w -> w.message().startsWith("column " + (line.indexOf('-') + 1)
                + ": negative size -4,608,000,000 B")),
                t.allWarnings().toString());
        OomMessage m = only("XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used -18.53K of -16.00K hbm.");
        assertNull(m.used());
        assertNull(m.capacity());
        assertEquals(2, m.warnings().stream().filter(w -> w.message().contains("negative size")).count(), m.warnings().toString());
        assertNull(Units.printedOrNull("-4608000000"));
    }

    @Test
    void aMessageIsCountedOnceWhenTheNextLineAlsoSaysAllocatingNBytes() {
        OomText t = OomReader.read("""
                RESOURCE_EXHAUSTED: Out of memory allocating 4608000000 bytes.
                W0000 cpu_client.cc:42] while allocating 96000 bytes for the output
                """);
        assertEquals(1, t.messages().size());
        assertEquals(4_608_000_000L, t.messages().get(0).requested().low());
        // a headline a terminal wrapped is still read whole
        OomText wrapped = OomReader.read("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory\nallocating 4608000000 bytes.\n");
        assertEquals(1, wrapped.messages().size());
        assertEquals(4_608_000_000L, wrapped.messages().get(0).requested().low());
    }

    @Test
    void theLogsWarningsAreBounded() {
        String donation = "UserWarning: Some donated buffers were not usable: ShapedArray(float32[8]).\n";
        OomText t = OomReader.read(donation.repeat(LogEvents.MAX_EVENTS + 5));
        assertEquals(LogEvents.MAX_EVENTS, t.events().size());
        assertTrue(t.warnings().stream().anyMatch(w -> w.message().startsWith("5 more warnings of the log")), t.warnings().toString());
    }
}
