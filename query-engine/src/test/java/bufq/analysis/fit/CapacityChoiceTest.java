package bufq.analysis.fit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A capacity is read once, where the user says it, into a value fit uses as it is. */
class CapacityChoiceTest {
    @Test
    void readsEveryKindOnce() {
        assertEquals(CapacityChoice.Kind.NONE, CapacityChoice.of("none").kind());
        assertNull(CapacityChoice.of("None").capacity("x"));
        CapacityChoice c = CapacityChoice.of("16 GiB");
        assertEquals(CapacityChoice.Kind.BYTES, c.kind());
        assertEquals(16L << 30, c.capacity("set capacity 16 GiB").bytes());
        assertEquals("16 GiB", c.toString());
        assertEquals(Long.MAX_VALUE, CapacityChoice.of("unlimited").capacity("set capacity unlimited").bytes());
        Capacity host = CapacityChoice.of("HOST").capacity("set capacity host");
        assertTrue(host.bytes() > 0 && host.source().startsWith("host: this machine's physical memory"), host.source());
        assertEquals("16616783872B", CapacityChoice.ofBytes(16_616_783_872L).toString());
    }

    @Test
    void refusesWhatIsNoCapacity() {
        assertTrue(assertThrows(NumberFormatException.class, () -> CapacityChoice.of("16")).getMessage().contains("has no unit"));
        assertTrue(assertThrows(NumberFormatException.class, () -> CapacityChoice.of("0B")).getMessage().contains("above 0"));
        assertTrue(assertThrows(NumberFormatException.class, () -> CapacityChoice.of("lots")).getMessage().contains("expected a size"));
    }
}
