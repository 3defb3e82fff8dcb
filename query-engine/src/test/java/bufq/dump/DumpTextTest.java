package bufq.dump;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Searches over mapped bytes find what String's own searches find, across block boundaries. */
class DumpTextTest {
    @Test
    void byteSearchesAgreeWithStringSearches() {
        Random rnd = new Random(3);
        StringBuilder b = new StringBuilder();
        while (b.length() < 300_000) b.append(rnd.nextInt(50) == 0 ? "\nHloLiveRange (max 3):\n" : "ab\nc<d\nallocation ");
        String text = b.toString();
        ByteBuffer direct = ByteBuffer.allocateDirect(text.length());
        direct.put(text.getBytes(StandardCharsets.US_ASCII)).flip();
        DumpText bytes = DumpText.of(direct);
        DumpText chars = DumpText.of(text);
        for (String lit : new String[] {"\nHloLiveRange (max ", "\n<", "\nallocation ", "zz", "c<d"}) {
            for (int i = 0; i < 200; i++) {
                int from = rnd.nextInt(text.length());
                assertEquals(text.indexOf(lit, from), bytes.indexOf(lit, from), lit + " from " + from);
                assertEquals(chars.indexOf(lit, from), bytes.indexOf(lit, from));
                int last = text.lastIndexOf(lit);
                int floor = rnd.nextInt(text.length());
                assertEquals(last >= floor ? last : -1, bytes.lastIndexOf(lit, floor), lit + " floor " + floor);
            }
            // Every occurrence, walking forward, crosses every block boundary.
            int at = -1, count = 0;
            while ((at = bytes.indexOf(lit, at + 1)) >= 0) {
                assertEquals(text.indexOf(lit, at), at);
                count++;
            }
            int expected = 0;
            for (int i = text.indexOf(lit); i >= 0; i = text.indexOf(lit, i + 1)) expected++;
            assertEquals(expected, count, lit);
        }
    }
}
