package bufq.dump;

import java.util.ArrayList;
import java.util.List;

/**
 * What one parser made of one region of a file. Line numbers in {@link #notes} are relative to the
 * region (1 = its first line) so regions can be parsed in parallel before their place in the file
 * is known; {@link #lines} lets the caller add them up.
 */
abstract class Part {
    record Note(long line, String message) {}

    final List<Note> notes = new ArrayList<>();
    long lines;
    /** Relative line where the region's text stopped early, or 0. */
    long truncatedAt;

    void warn(long line, String message) {
        if (notes.size() < Warnings.CAP) notes.add(new Note(line, message));
        else dropped++;
    }

    int dropped;

    /** The warning text for a line that failed: our own messages as they are, anything else named. */
    static String message(RuntimeException e) {
        if (e instanceof Cursor.Bad || e instanceof ShapeSyntaxException) return e.getMessage();
        if (e instanceof ArithmeticException) return "number out of range (" + e.getMessage() + ")";
        return "unreadable line (" + e.getClass().getSimpleName() + ")";
    }
}
