package bufq.dump.text;

import bufq.dump.text.Lines.Literal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Lines and cursors read a region's ASCII bytes when the interner knows them, its text otherwise:
 * both ways must see the same lines, numbers, literals and errors, on random text (fixed seed) that
 * mixes line ends, blanks and the characters the parsers stop at.
 */
class LinesTest {
    private static final String ALPHABET = "0123456789 :{}>-@,=abz\n\n\r\t";

    private static String randomText(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(120);
        for (int i = 0; i < n; i++) b.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        return b.toString();
    }

    /** Lines of {@code text[from, to)} read from bytes that start {@code pad} bytes into their array. */
    private static Lines fromBytes(String text, int from, int to, int pad) {
        byte[] b = new byte[pad + text.length() + 3];
        System.arraycopy(text.getBytes(StandardCharsets.ISO_8859_1), 0, b, pad, text.length());
        Lines ls = new Lines(text, from, to, 7, b, pad);
        assertTrue(ls.bytes != null, "the bytes are used");
        return ls;
    }

    private static List<String> walk(Lines ls) {
        List<String> out = new ArrayList<>();
        while (ls.next()) {
            out.add(ls.number + "[" + ls.start + "," + ls.end + ")" + ls.atEnd() + ls.lastUnterminated
                    + " blank=" + ls.isBlank() + " sw=" + ls.startsWith("1") + ls.startsWith(Literal.of(" 1"))
                    + " c0=" + (int) ls.charAt(0) + " c3=" + (int) ls.charAt(3) + " colon=" + ls.lastIndexOf(':')
                    + " first=" + ls.indexOf(':', ls.start) + " second=" + ls.indexOf(':', ls.indexOf(':', ls.start) + 1));
            out.add(cursorReads(new Cursor("").reset(ls, 0)));
        }
        return out;
    }

    /** What a cursor makes of the line: numbers, literals, names, finds, and the errors they raise. */
    private static String cursorReads(Cursor c) {
        StringBuilder b = new StringBuilder();
        for (int step = 0; step < 12 && !c.atEnd(); step++) {
            try {
                switch (step % 6) {
                    case 0 -> b.append("n").append(c.number());
                    case 1 -> b.append("m").append(c.match(Literal.of(" :"))).append(c.match(':'));
                    case 2 -> { int at = c.pos; c.skipName(); b.append("s").append(c.pos - at); }
                    case 3 -> b.append("f").append(c.find('}')).append(c.find("}"));
                    case 4 -> c.expect(Literal.of("{}"));
                    default -> b.append("p").append((int) c.peek());
                }
            } catch (Cursor.Bad e) {
                b.append("!").append(e.getMessage());
                c.pos++;
            }
            b.append(' ');
        }
        return b.toString();
    }

    @Test
    void bytesAndTextReadTheSame() {
        Random r = new Random(11);
        for (int round = 0; round < 3000; round++) {
            String text = randomText(r);
            int from = text.isEmpty() ? 0 : r.nextInt(text.length() + 1);
            int to = from + (text.length() == from ? 0 : r.nextInt(text.length() - from + 1));
            if (r.nextBoolean()) { from = 0; to = text.length(); }
            List<String> want = walk(new Lines(text, from, to, 7));
            List<String> got = walk(fromBytes(text, from, to, r.nextInt(9)));
            assertEquals(want, got, "text '" + text.replace("\n", "\\n").replace("\r", "\\r") + "' [" + from + "," + to + ")");
        }
    }

    @Test
    void aRegionCutBeforeTheFileEndsIsNotAnUnterminatedLine() {
        String text = "12:ab\n34:cd\n56";
        Lines ls = fromBytes(text, 0, 9, 0);   // stops inside the second line: a newline follows in the file
        assertTrue(ls.next() && ls.next());
        assertEquals("34:", ls.line());
        assertEquals(false, ls.lastUnterminated);
        Lines tail = fromBytes(text, 12, text.length(), 0);
        assertTrue(tail.next());
        assertEquals(true, tail.lastUnterminated);
    }
}
