package bufq.oom;

import java.nio.charset.StandardCharsets;
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

    /** Words one of which every headline phrase holds: most log lines are dismissed on these alone. */
    private static final String[] KEYS = {"emory", "llocate", "llocati", "rogram", "eserve", "Hbm"};

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
        LogLines lines = new LogLines(text, KEYS);
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
            Family f = headline(line);
            // A headline a terminal wrapped: its key word is on this line, its start at the end of this
            // line or of the one before.
            String next = f == null ? lines.peek() : null;
            if (next != null && !next.isEmpty()) {
                Family g = headline(seam(line, next));
                if (g != null && headlineAt(seam(line, next)) < Math.min(line.length(), TAIL)) {
                    lines.advance();
                    line = line + " " + next;
                    f = g;
                }
            }
            String before = f == null ? lines.previous() : null;
            if (before != null && !before.isEmpty()) {
                Family g = headline(seam(before, line));
                if (g != null && headlineAt(seam(before, line)) < Math.min(before.length(), TAIL)) {
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

    /** The family whose headline phrase {@code line} holds, or null. */
    static Family headline(String line) {
        if (line.length() < 16) return null;
        // every phrase holds one of these ("allocator" does not): most log lines are dismissed after six scans
        if (line.indexOf("emory") < 0 && line.indexOf("llocate") < 0 && line.indexOf("llocati") < 0
                && line.indexOf("rogram") < 0 && line.indexOf("eserve") < 0 && line.indexOf("Hbm") < 0) return null;
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

    /** The longest headline phrase, and then some: a wrapped headline starts this close to its line's end. */
    private static final int TAIL = 48;


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
