package bufq.oom;

import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads pasted text into out-of-memory messages, every family of FORMAT.md's "Out-of-memory
 * messages", each its own {@link OomMessage}: log prefixes, tracebacks around a message, tabs, lines
 * a terminal re-wrapped and several messages in one paste are taken as they come. Text without a
 * message gives none. Never throws on input; one pass with plain string search (no regular
 * expressions), so a 50 MB log takes well under a second.
 */
public final class OomReader {
    private OomReader() {}

    /** A block stops after this many lines (a BFC dump of a big heap is long, never this long). */
    static final int MAX_BLOCK_LINES = 200_000;

    /** Headline phrases, each naming its family; searched in this order. */
    private static final String[][] HEADLINES = {
            {"Out of memory while trying to allocate", "GPU_ASSIGNMENT"},
            {"Out of memory allocating", "CPU"},
            {"Failed to allocate request for", "STREAM_EXECUTOR"},
            {"ran out of memory trying to allocate", "BFC"},
            {"Ran out of memory in memory space", "TPU_COMPILE"},
            {"would exceed memory (size=", "TPU_ALLOCATION"},
            {"Error allocating device buffer", "TPU_BUFFER"},
            {"Error loading program", "TPU_PROGRAM_LOAD"},
            {"Attempting to reserve", "TPU_PROGRAM_LOAD"},
            {"SparseCore Hbm usage", "SPARSECORE"},
    };

    /** Words one of which a line holds when a headline may start on it and go on to the next. */
    private static final String[] STEMS = {"Out of", "memory", "allocat", "Ran out", "Error", "Failed", "Attempting", "Hbm"};

    /** Reads UTF-8 bytes (bad bytes become U+FFFD; lines with NUL bytes are skipped with a warning). */
    public static OomText read(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            text = new String(bytes, StandardCharsets.ISO_8859_1);   // cannot happen with REPLACE
        }
        return read(text);
    }

    /** Reads pasted text. */
    public static OomText read(String text) {
        Lines lines = new Lines(text);
        List<OomMessage> messages = new ArrayList<>();
        List<OomWarning> warnings = new ArrayList<>();
        int binaryFrom = -1, binaryCount = 0;
        String line;
        while ((line = lines.next()) != null) {
            if (lines.binary()) {
                if (binaryCount++ == 0) binaryFrom = lines.number();
                continue;
            }
            int start = lines.number();
            Family f = headline(line);
            if (f == null && hasStem(line)) {
                String next = lines.peek();
                if (next != null && !next.isEmpty()) {
                    String joined = line + " " + next;
                    Family g = headline(joined);
                    if (g != null && headlineAt(joined) < line.length()) {
                        lines.next();
                        line = joined;
                        f = g;
                    }
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

    /** The family whose headline phrase {@code line} holds, or null. */
    static Family headline(String line) {
        if (line.length() < 16) return null;
        for (String[] h : HEADLINES) if (line.contains(h[0])) return Family.valueOf(h[1]);
        if (line.contains("Attempting to allocate") && line.contains("free")) return Family.TPU_BUFFER;
        return null;
    }

    private static int headlineAt(String line) {
        int best = Integer.MAX_VALUE;
        for (String[] h : HEADLINES) {
            int i = line.indexOf(h[0]);
            if (i >= 0) best = Math.min(best, i);
        }
        int i = line.indexOf("Attempting to allocate");
        return i >= 0 ? Math.min(best, i) : best;
    }

    private static boolean hasStem(String line) {
        for (String s : STEMS) if (line.contains(s)) return true;
        return false;
    }

    /** Whether a line starts another message (so the block before it ends). */
    static boolean startsMessage(String line) { return headline(line) != null; }

    /** The size right after the first {@code key} in {@code s} at or after {@code from}, or null. */
    static ByteSize sizeAfter(String s, String key, int from) {
        int i = s.indexOf(key, from);
        if (i < 0) return null;
        return ByteSize.at(s, i + key.length(), null);
    }

    static ByteSize sizeAfter(String s, String key) { return sizeAfter(s, key, 0); }

    /** The text between {@code open} and the next {@code close} after it, or null. */
    static String between(String s, String open, String close) {
        int i = s.indexOf(open);
        if (i < 0) return null;
        int j = s.indexOf(close, i + open.length());
        return j < 0 ? null : s.substring(i + open.length(), j);
    }

    /** The decimal number starting at {@code i} (blanks skipped), or -1. */
    static long numberAt(String s, int i) {
        int n = s.length();
        while (i < n && s.charAt(i) == ' ') i++;
        long v = 0;
        int start = i;
        while (i < n && Character.isDigit(s.charAt(i)) && i - start < 18) v = v * 10 + (s.charAt(i++) - '0');
        return i == start ? -1 : v;
    }

    static String lower(String s) { return s.toLowerCase(Locale.ROOT); }
}
