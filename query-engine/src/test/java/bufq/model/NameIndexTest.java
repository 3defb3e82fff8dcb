package bufq.model;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class NameIndexTest {
    @Test
    void answersLikeAHashMap() {
        Random rnd = new Random(5);
        Map<String, Integer> ref = new HashMap<>();
        NameIndex<Integer> idx = new NameIndex<>(20_000);
        for (int i = 0; i < 20_000; i++) {
            String k = "fusion." + rnd.nextInt(15_000);
            int v = i;
            ref.merge(k, v, Integer::sum);
            idx.merge(k, v, Integer::sum);
        }
        assertEquals(ref.size(), idx.size());
        for (Map.Entry<String, Integer> e : ref.entrySet()) assertEquals(e.getValue(), idx.get(e.getKey()));
        assertNull(idx.get("nope"));
        // "Aa" and "BB" share a hash code: probing must tell them apart.
        NameIndex<String> c = new NameIndex<>(2);
        c.putIfAbsent("Aa", "x");
        c.putIfAbsent("BB", "y");
        c.putIfAbsent("Aa", "z");
        assertEquals("x", c.get("Aa"));
        assertEquals("y", c.get("BB"));
    }
}
