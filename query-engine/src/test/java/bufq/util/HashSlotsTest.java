package bufq.util;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The open-addressing core, driven as its owners drive it: keys in an array beside it, by slot. */
class HashSlotsTest {
    /** A table of int keys whose hash is chosen by the test (to force collisions and the hash 0). */
    private static final class Table {
        HashSlots slots = HashSlots.forKeys(2);
        int[] keys = new int[slots.capacity()];
        final java.util.function.IntUnaryOperator hash;

        Table(java.util.function.IntUnaryOperator hash) { this.hash = hash; }

        int slot(int key) {
            int h = hash.applyAsInt(key);
            int i = slots.first(h);
            while (i >= 0 && keys[i] != key) i = slots.next(i, h);
            return i;
        }

        boolean add(int key) {
            int i = slot(key);
            if (i >= 0) return false;
            keys[~i] = key;
            if (slots.claim(~i, hash.applyAsInt(key), -key)) {
                int[] old = keys, bigger = new int[old.length * 2];
                slots = slots.grow((from, to) -> bigger[to] = old[from]);
                keys = bigger;
            }
            return true;
        }
    }

    @Test
    void keysWithEqualHashesAreToldApartAndSurviveGrowth() {
        for (int same : new int[] {0, 1, -1, 0x9E3779B9}) {   // 0 is the free mark; 0x9E3779B9 is what 0 is stored as
            Table t = new Table(k -> k % 3 == 0 ? same : k * 31);
            List<Integer> added = new ArrayList<>();
            for (int k = 1; k <= 500; k++) {
                assertTrue(t.add(k), "new key " + k);
                added.add(k);
            }
            assertFalse(t.add(9), "a key is added once");
            assertEquals(500, t.slots.size());
            assertTrue(t.slots.capacity() >= 1000, "at most half full: " + t.slots.capacity());
            for (int k : added) {
                int i = t.slot(k);
                assertTrue(i >= 0 && t.keys[i] == k && t.slots.value(i) == -k, "found " + k + " with its int");
            }
            for (int k = 501; k < 600; k++) assertTrue(t.slot(k) < 0, "absent " + k);
        }
    }

    @Test
    void sizedForItsKeysItDoesNotGrow() {
        HashSlots s = HashSlots.forKeys(100);
        int cap = s.capacity();
        assertTrue(cap >= 200 && Integer.bitCount(cap) == 1, "a power of two at least twice the keys: " + cap);
        Map<Integer, Integer> at = new HashMap<>();
        for (int k = 0; k < 100; k++) {
            int free = ~s.first(k);
            assertFalse(s.claim(free, k, k), "key " + k + " still fits");
            at.put(k, free);
        }
        for (int k = 0; k < 100; k++) assertEquals(at.get(k), s.first(k), "key " + k + " (hash " + k + ") in its slot");
        assertTrue(s.claim(~s.first(1000), 1000, 7) == (101 * 2 > cap));
        int i = s.first(1000);
        assertEquals(7, s.value(i));
        s.setValue(i, -1);
        assertEquals(-1, s.value(i));
        assertEquals(i, s.first(1000), "the hash stays when the int changes");
    }
}
