package bufq.dump.text;

import bufq.dump.text.ShapeParser.ShapeSyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one parser made of one region of a file. Line numbers in {@link #notes} are relative to the
 * region (1 = its first line) so regions can be parsed in parallel before their place in the file
 * is known; {@link #lines} lets the caller add them up.
 */
public abstract class RegionParse {
    public record Note(long line, String message) {}

    final List<Note> notes = new ArrayList<>();
    long lines;
    /** Relative line where the region's text stopped early, or 0. */
    long truncatedAt;
    /** Warnings past {@link Warnings#CAP}, counted and not kept. */
    int dropped;

    /** Notes a warning about relative line {@code line}. */
    public void warn(long line, String message) {
        if (notes.size() < Warnings.CAP) notes.add(new Note(line, message));
        else dropped++;
    }

    /** The warnings kept, in the order noted. */
    public List<Note> notes() { return notes; }
    /** Warnings past the cap, not kept. */
    public int dropped() { return dropped; }
    /** Lines read. */
    public long lines() { return lines; }
    /** Relative line where the region's text stopped early, or 0. */
    public long truncatedAt() { return truncatedAt; }

    /**
     * The region's text stops early at relative line {@code line} (its file was cut off there, as
     * the caller who cut the file knows), unless the parse already found where.
     */
    public void cutShortAt(long line) {
        if (truncatedAt == 0) truncatedAt = line;
    }

    /** The warning text for a line that failed: our own messages as they are, anything else named. */
    static String message(RuntimeException e) {
        if (e instanceof Cursor.Bad || e instanceof ShapeSyntaxException) return e.getMessage();
        if (e instanceof ArithmeticException) return "number out of range (" + e.getMessage() + ")";
        return "unreadable line (" + e.getClass().getSimpleName() + ")";
    }

    /** What a part does with one line of its region; a RuntimeException makes the line a warning. */
    interface LineReader {
        void line(Lines ls);
    }

    /**
     * Reads every line of a region through {@code reader}. A line that throws becomes a warning
     * naming it, unless it is the file's last line and has no line end: then the file was cut off
     * there, and {@link #truncatedAt} says so, as it does when the region's last line is unterminated.
     */
    final void readLines(Lines ls, LineReader reader) {
        while (ls.next()) {
            lines = ls.number;
            try {
                reader.line(ls);
            } catch (RuntimeException e) {
                if (ls.atEnd() && ls.lastUnterminated) truncatedAt = ls.number;
                else warn(ls.number, message(e));
            }
        }
        if (ls.lastUnterminated && truncatedAt == 0 && lines > 0) truncatedAt = lines;
    }
}
