package bufq.dump.text;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Numbers read up to the last one a long holds, and refused one past it, at every length. */
class CursorTest {
    @Test
    void numbersUpToTheLimitOfALong() {
        assertEquals(Long.MAX_VALUE, new Cursor("9223372036854775807,").number());
        assertEquals(0, new Cursor("0").number());
        assertEquals(922337203685477580L, new Cursor("922337203685477580x").number());
        for (String past : new String[] {"9223372036854775808", "9223372036854775810", "92233720368547758070", "99999999999999999999"}) {
            Cursor.Bad e = assertThrows(Cursor.Bad.class, () -> new Cursor(past).number(), past);
            assertTrue(e.getMessage().contains("number too large"), e.getMessage());
        }
        for (int digits = 1; digits <= 18; digits++) {
            String nines = "9".repeat(digits);
            assertEquals(Long.parseLong(nines), new Cursor(nines).number(), nines);
        }
    }
}
