package bufq.analysis.oom;

import bufq.units.Units;

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

    /** The most distinct messages kept from one paste; the rest are counted in a warning. */
    public static final int MAX_MESSAGES = 1_000;

    /** The most bytes {@code oom} reads of a file or a paste; the rest is not read, and it says so. */
    public static final int MAX_BYTES = 128 << 20;

    /**
     * Reads pasted text.
     *
     * @throws java.util.concurrent.CancellationException when the thread is interrupted (Ctrl-C)
     */
    public static OomText read(String text) {
        String[] keys = new String[Headlines.KEYS.length + LogEvents.KEYS.length];
        System.arraycopy(Headlines.KEYS, 0, keys, 0, Headlines.KEYS.length);
        System.arraycopy(LogEvents.KEYS, 0, keys, Headlines.KEYS.length, LogEvents.KEYS.length);
        LogLines lines = new LogLines(text, keys);
        FailureSet messages = new FailureSet();
        LogEvents events = new LogEvents();
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
            List<OomWarning> early = new ArrayList<>();
            // A headline a terminal wrapped: its key word is on this line, its start at the end of this
            // line or of the one before (neither of which is a headline of its own).
            String next = f == null ? lines.peek() : null;
            if (next != null && !next.isEmpty() && Headlines.family(next) == null) {
                Family g = Headlines.family(seam(line, next));
                if (g != null && Headlines.at(seam(line, next)) < Math.min(line.length(), TAIL)) {
                    FigureCheck.scan(lines.raw(), start, early);
                    lines.advance();
                    line = line + " " + next;
                    f = g;
                }
            }
            String before = f == null ? lines.previous() : null;
            if (before != null && !before.isEmpty() && Headlines.family(before) == null) {
                Family g = Headlines.family(seam(before, line));
                if (g != null && Headlines.at(seam(before, line)) < Math.min(before.length(), TAIL)) {
                    FigureCheck.scan(lines.rawPrevious(), start - 1, early);
                    line = before + " " + line;
                    start--;
                    f = g;
                }
            }
            if (f == null) {
                events.line(line, start);
                continue;
            }
            String after = f == Family.BFC ? lines.peek() : null;
            if (f == Family.BFC && (line.contains("not a failure") || after != null && after.startsWith("The caller indicates"))) {
                events.notAFailure(line, start);
                continue;
            }
            FigureCheck.scan(lines.raw(), lines.number(), early);
            messages.add(new MessageParser(f, start, line, lines, early).parse());
        }
        if (binaryCount > 0)
            warnings.add(new OomWarning(binaryFrom, "skipped " + binaryCount + " line" + (binaryCount == 1 ? "" : "s")
                    + " of binary data (NUL bytes) from here: expected the text of a log"));
        List<LogEvent> found = events.finish();
        if (events.dropped() > 0)
            warnings.add(new OomWarning(found.get(found.size() - 1).line(), Units.grouped(events.dropped())
                    + " more warnings of the log after this one not shown (at most " + Units.grouped(LogEvents.MAX_EVENTS) + " are kept)"));
        warnings.addAll(messages.warnings());
        return new OomText(messages.kept(), warnings, lines.number(), found);
    }

    /** The longest headline phrase, and then some: a wrapped headline starts this close to its line's end. */
    private static final int TAIL = 48;
}
