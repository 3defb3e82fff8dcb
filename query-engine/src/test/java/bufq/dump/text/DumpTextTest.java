package bufq.dump.text;

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

    /** Eight bytes at a time: every alignment, literals of one byte, ones that start a line, matches at the very end. */
    @Test
    void wordAtATimeSearchFindsEveryOccurrence() {
        Random rnd = new Random(11);
        for (int round = 0; round < 40; round++) {
            StringBuilder b = new StringBuilder();
            int n = 1 + rnd.nextInt(round < 20 ? 64 : 140_000);
            while (b.length() < n) b.append("\nUa<x".charAt(rnd.nextInt(5)));
            if (rnd.nextBoolean()) b.append("\nUsed values:");
            String text = b.toString();
            ByteBuffer direct = ByteBuffer.allocateDirect(text.length());
            direct.put(text.getBytes(StandardCharsets.US_ASCII)).flip();
            DumpText bytes = DumpText.of(direct);
            for (String lit : new String[] {"\n", "U", "\nU", "a<", "\nUsed values:", "Ua\n<"}) {
                int at = -1;
                while (true) {
                    int expected = text.indexOf(lit, at + 1);
                    int found = bytes.indexOf(lit, at + 1);
                    assertEquals(expected, found, lit + " after " + at + " in " + text.length() + " bytes");
                    if (found < 0) break;
                    at = found;
                }
            }
        }
    }
}
