package bufq.dump.text;

import java.nio.charset.StandardCharsets;

/**
 * A fixed ASCII piece of a dump line's grammar ({@code "> (size="}), with its bytes, for the parts
 * that read a million lines: matched against a region's bytes ({@link Lines#bytes}), a literal's own
 * {@code charAt} was a sixth of reading the allocation section without the optimizing compiler.
 */
public final class Literal {
    final String text;
    final byte[] bytes;

    private Literal(String text) {
        this.text = text;
        this.bytes = text.getBytes(StandardCharsets.US_ASCII);
    }

    static Literal of(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) throw new IllegalArgumentException("not ASCII: " + text);
        }
        return new Literal(text);
    }

    int length() { return bytes.length; }

    /** Whether {@code b[at, at + length)} is this literal (the caller checks the bounds). */
    boolean isAt(byte[] b, int at) {
        byte[] l = bytes;
        for (int k = 0; k < l.length; k++) if (b[at + k] != l[k]) return false;
        return true;
    }

    @Override public String toString() { return text; }
}
