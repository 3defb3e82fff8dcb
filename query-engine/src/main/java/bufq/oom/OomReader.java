package bufq.oom;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads pasted text into out-of-memory messages, every family of FORMAT.md's "Out-of-memory
 * messages", each its own {@link OomMessage}: log prefixes, tracebacks around a message, tabs, lines
 * a terminal re-wrapped and several messages in one paste are taken as they come. Text without a
 * message gives none. Never throws on input; one pass with plain string search (no regular
 * expressions), so a 50 MB log takes well under a second.
 */
public final class OomReader {
    private OomReader() {}

    /** The end of {@code a} and the start of {@code b}, where a wrapped headline would be. */
    private static String seam(String a, String b) {
        return a.substring(Math.max(0, a.length() - TAIL)) + " " + b.substring(0, Math.min(b.length(), 2 * TAIL));
    }

    /** Reads UTF-8 bytes (bad bytes become U+FFFD; lines with NUL bytes are skipped with a warning). */
    public static OomText read(byte[] bytes) {
        // String's own decoder replaces bad bytes too, and is several times faster than a CharsetDecoder
        return read(new String(bytes, StandardCharsets.UTF_8));
    }

    /** Reads pasted text. */
    public static OomText read(String text) {
        LogLines lines = new LogLines(text, Headlines.KEYS);
        List<OomMessage> messages = new ArrayList<>();
        List<OomWarning> warnings = new ArrayList<>();
        int binaryFrom = -1, binaryCount = 0;
        while (lines.advance()) {
            if (lines.binary()) {
                if (binaryCount++ == 0) binaryFrom = lines.number();
                continue;
            }
            if (!lines.holdsAWord()) continue;
            String line = lines.line();
            int start = lines.number();
            Family f = Headlines.family(line);
            // A headline a terminal wrapped: its key word is on this line, its start at the end of this
            // line or of the one before.
            String next = f == null ? lines.peek() : null;
            if (next != null && !next.isEmpty()) {
                Family g = Headlines.family(seam(line, next));
                if (g != null && Headlines.at(seam(line, next)) < Math.min(line.length(), TAIL)) {
                    lines.advance();
                    line = line + " " + next;
                    f = g;
                }
            }
            String before = f == null ? lines.previous() : null;
            if (before != null && !before.isEmpty()) {
                Family g = Headlines.family(seam(before, line));
                if (g != null && Headlines.at(seam(before, line)) < Math.min(before.length(), TAIL)) {
                    line = before + " " + line;
                    start--;
                    f = g;
                }
            }
            if (f == null) continue;
            messages.add(new MessageParser(f, start, line, lines).parse());
        }
        if (binaryCount > 0)
            warnings.add(new OomWarning(binaryFrom, "skipped " + binaryCount + " line" + (binaryCount == 1 ? "" : "s")
                    + " of binary data (NUL bytes) from here: expected the text of a log"));
        return new OomText(messages, warnings, lines.number());
    }

    /** The longest headline phrase, and then some: a wrapped headline starts this close to its line's end. */
    private static final int TAIL = 48;
}
