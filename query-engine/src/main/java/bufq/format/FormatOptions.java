package bufq.format;

/**
 * Rendering options.
 *
 * @param rawSizes     print byte counts as plain integers instead of KiB/MiB in the table format
 * @param color        ANSI colour allowed (only the table format uses it)
 * @param maxCellWidth widest cell of the table format in columns, longer text cut with {@code …};
 *                     0 for no limit (other formats never cut)
 * @param lineWidth    the terminal's width: the table format cuts text columns, then leaves out
 *                     columns from the right (saying which) so no line wraps; 0 for no limit
 * @param terminal     the text goes to a terminal: csv, tsv and markdown show control characters
 *                     escaped ({@code \x1b}), as table and json always do; files keep the data exact
 * @param foldWidth    where nothing may be cut (a pipe, a file: {@code lineWidth} 0), the longest line
 *                     the table and vertical formats print: a table wider than it prints one field
 *                     per line, and notes and long values are broken at spaces, every word kept;
 *                     0 for no limit (each row on one line)
 */
public record FormatOptions(boolean rawSizes, boolean color, int maxCellWidth, int lineWidth, boolean terminal,
                            int foldWidth) {
    public static final FormatOptions DEFAULT = new FormatOptions(false, false, 0, 0);

    public FormatOptions(boolean rawSizes, boolean color) {
        this(rawSizes, color, 0, 0);
    }

    public FormatOptions(boolean rawSizes, boolean color, int maxCellWidth) {
        this(rawSizes, color, maxCellWidth, 0);
    }

    public FormatOptions(boolean rawSizes, boolean color, int maxCellWidth, int lineWidth) {
        this(rawSizes, color, maxCellWidth, lineWidth, false);
    }

    public FormatOptions(boolean rawSizes, boolean color, int maxCellWidth, int lineWidth, boolean terminal) {
        this(rawSizes, color, maxCellWidth, lineWidth, terminal, 0);
    }

    /**
     * The width prose is broken at: the terminal's where there is one, else {@link #foldWidth()}
     * (0: lines as they are).
     */
    public int wrapWidth() { return lineWidth > 0 ? lineWidth : foldWidth; }
}
