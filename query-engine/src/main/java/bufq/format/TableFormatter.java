package bufq.format;

import bufq.table.Column;
import bufq.table.ColumnType;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Aligned plain-text columns for the terminal: an optional title line, a header, a dashed rule, the
 * rows (numbers right-aligned), a {@code (N rows)} footer, then the table's notes. Nulls print as
 * empty; control characters in cells are shown escaped so they cannot break the alignment
 * or drive the terminal. With {@link FormatOptions#color()} the header is bold and nulls dim; with
 * {@link FormatOptions#maxCellWidth()} long cells are cut with {@code …}; with
 * {@link FormatOptions#lineWidth()} a table wider than the terminal first has its widest text
 * columns cut, then loses its emptiest and least useful columns, with a note naming them, and notes
 * are wrapped at spaces. Where nothing may be cut, a table wider than {@link FormatOptions#foldWidth()}
 * prints its statements, then its widest texts, whole under each row, or else as
 * {@link VerticalFormatter vertical}; notes wrap at the fold.
 */
public final class TableFormatter implements Formatter {
    private static final String GAP = "  ";
    private static final String BOLD = "\033[1m";
    private static final String DIM = "\033[2m";
    private static final String RESET = "\033[0m";

    @Override public String name() { return "table"; }
    @Override public boolean forPeople() { return true; }

    /** The statement after {@code -- } when echoed, then the outputs in order ({@link Results#inOrder}). */
    @Override public void write(Result result, FormatOptions options, StringBuilder out) {
        if (result.heading() != null) out.append("-- ").append(result.heading()).append('\n');
        Results.inOrder(result, this, false, options, out);
    }

    @Override public void write(Table table, FormatOptions options, StringBuilder out) {
        int w = table.width();
        int n = table.size();
        String[][] cells = new String[n][w];
        String[][] whole = new String[n][w];  // uncut, so a second cut starts from the text, not from a cut
        int[] width = new int[w];
        boolean[] right = new boolean[w];
        for (int c = 0; c < w; c++) {
            Column col = table.columns().get(c);
            right[c] = Cells.numeric(col.type());
            width[c] = displayWidth(visible(col.name()));
        }
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < w; c++) {
                String text = visible(Cells.human(table.cell(r, c), table.columns().get(c).type(), options));
                String s = statement(table, c) ? text : cut(text, options.maxCellWidth());
                whole[r][c] = text;
                cells[r][c] = s;
                width[c] = Math.max(width[c], displayWidth(s));
            }
        }
        boolean[] under = new boolean[w];
        // A table too wide for the terminal (or, in a pipe, for the fold), or a statement wider than maxwidth,
        // prints its statements whole on lines of their own under their rows, leaving the row's width to
        // the text that explains them.
        boolean wide = options.wrapWidth() > 0 && total(width, kept(under)) > options.wrapWidth();
        for (int c = 0; c < w && !wide; c++) wide = statement(table, c) && options.maxCellWidth() > 0 && width[c] > options.maxCellWidth();
        if (wide) for (int c = 0; c < w; c++) under[c] = statement(table, c);
        boolean[] labelled = new boolean[w];
        if (options.lineWidth() <= 0 && options.foldWidth() > 0 && table.size() > 0) {
            // Where nothing may be cut, a row longer than the fold would be one line past reading: its
            // longest texts (a finding, a list of files) go whole under it, labelled, widest first,
            // while that leaves a table; else one field per line, every cell whole.
            while (total(width, kept(under)) > options.foldWidth()) {
                int widest = -1;
                for (int c = 1; c < w; c++)
                    if (!under[c] && !right[c] && (widest < 0 || width[c] > width[widest])) widest = c;
                if (widest < 0 || width[widest] < FOLD_TEXT) break;
                under[widest] = labelled[widest] = true;
            }
            if (total(width, kept(under)) > options.foldWidth()) {
                VERTICAL.write(table.withNote("one field per line: its rows are wider than " + options.foldWidth()
                        + " columns (set foldwidth 0 prints it as a table, a row a line)"), options, out);
                return;
            }
        }
        if (!fitsSoftly(table, cells, whole, width, right, options.lineWidth(), under)) {
            // A table that must cut what its rows say to a stub, or leave it out, is no table worth
            // reading: one field per line, every cell whole, instead.
            VERTICAL.write(table.withNote("one field per line: the table is too wide for " + options.lineWidth()
                    + " columns (--format table with set maxwidth 0 prints it as a table)"), options, out);
            return;
        }
        String[] label = new String[w];
        for (int c = 0; c < w; c++) label[c] = labelled[c] ? visible(table.columns().get(c).name()) + ": " : "";
        boolean fitted = options.lineWidth() > 0 && total(width, kept(under)) > options.lineWidth();
        int[] shown = fit(table, cells, whole, width, right, options.lineWidth(), under);
        String lost = lostNote(table, shown, under, cells, whole, options, fitted);
        if (table.title() != null) wrap(visible(table.title()), options.wrapWidth(), out);
        if (shown.length > 0) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < shown.length; i++) {
                int c = shown[i];
                String name = visible(table.columns().get(c).name());
                if (i > 0) line.append(GAP);
                cell(line, name, width[c], right[c], i == shown.length - 1, options.color() ? BOLD : null);
            }
            out.append(stripRight(line)).append('\n');
            line.setLength(0);
            for (int i = 0; i < shown.length; i++) {
                if (i > 0) line.append(GAP);
                line.append("-".repeat(width[shown[i]]));
            }
            out.append(line).append('\n');
            for (int r = 0; r < n; r++) {
                line.setLength(0);
                for (int i = 0; i < shown.length; i++) {
                    int c = shown[i];
                    boolean isNull = table.cell(r, c) == null;
                    if (i > 0) line.append(GAP);
                    cell(line, cells[r][c], width[c], right[c], i == shown.length - 1, isNull && options.color() ? DIM : null);
                }
                out.append(stripRight(line)).append('\n');
                for (int c = 0; c < w; c++) {
                    if (!under[c] || table.cell(r, c) == null || whole[r][c].isEmpty()) continue;
                    indented(label[c] + whole[r][c], options.wrapWidth(), out);
                }
            }
        }
        out.append('(').append(n).append(n == 1 ? " row)" : " rows)").append('\n');
        for (String note : table.notes()) wrap(visible(note), options.wrapWidth(), out);
        for (String note : Cells.columnNotes(table, withUnder(shown, under))) wrap(visible(note), options.wrapWidth(), out);
        if (lost != null) wrap(lost, options.wrapWidth(), out);
    }

    /**
     * A statement (or a labelled text) under its row, indented; on a terminal narrower than it, or in
     * a pipe past the fold, broken at spaces onto lines indented further, so no line runs past it.
     */
    static void indented(String statement, int lineWidth, StringBuilder out) {
        if (lineWidth <= 0 || displayWidth(statement) + 4 <= lineWidth) {
            out.append("    ").append(statement).append('\n');
            return;
        }
        StringBuilder lines = new StringBuilder();
        wrap(statement, Math.max(20, lineWidth - 6), lines);
        boolean first = true;
        for (String l : lines.toString().split("\n")) {
            out.append(first ? "    " : "      ").append(l).append('\n');
            first = false;
        }
    }

    /** The columns shown in the table and those printed under each row, in column order. */
    private static int[] withUnder(int[] shown, boolean[] under) {
        boolean[] gone = new boolean[under.length];
        Arrays.fill(gone, true);
        for (int c : shown) gone[c] = false;
        for (int c = 0; c < under.length; c++) if (under[c]) gone[c] = false;
        return kept(gone);
    }

    /** A runnable statement: never cut, never left out (see {@link ColumnType#STATEMENT}). */
    private static boolean statement(Table table, int c) {
        return table.columns().get(c).type() == ColumnType.STATEMENT;
    }

    private static final VerticalFormatter VERTICAL = new VerticalFormatter();

    /**
     * Whether the table fits {@code lineWidth} by the gentle steps of {@link #fit}: leaving out empty
     * and optional columns, cutting text to {@link #SOFT_TEXT}. Past that it would cut what its rows
     * say to a stub (advise's findings to ten columns) or leave it out. Changes nothing it is given.
     */
    private static boolean fitsSoftly(Table table, String[][] cells, String[][] whole, int[] width, boolean[] right,
                                      int lineWidth, boolean[] under) {
        if (lineWidth <= 0 || table.size() == 0 || total(width, kept(under)) <= lineWidth) return true;
        String[][] copy = new String[cells.length][];
        for (int r = 0; r < cells.length; r++) copy[r] = cells[r].clone();
        int[] w = width.clone();
        boolean[] gone = under.clone();
        drop(table, w, gone, lineWidth, c -> empty(table, c));
        cutText(table, copy, whole, w, right, kept(gone), lineWidth, SOFT_TEXT);
        return total(w, drop(table, w, gone, lineWidth, c -> table.columns().get(c).optional())) <= lineWidth;
    }

    /**
     * Narrowest text column a pipe's row moves under it to keep within the fold: past that, moving
     * columns leaves a table of stubs, and one field per line reads better.
     */
    static final int FOLD_TEXT = 40;

    /** Narrowest a text column is cut to before columns are left out instead. */
    static final int MIN_TEXT = 10;

    /** How far text columns are cut before optional columns are left out. */
    static final int SOFT_TEXT = 24;

    /**
     * Makes the table fit {@code lineWidth} columns, giving up what says least first: columns with
     * nothing in them (every cell null, zero or empty); then text cut to {@link #SOFT_TEXT}; then
     * the columns the table marks {@link Column#optional() optional}; then text cut to
     * {@link #MIN_TEXT} (never below a header); then columns from the right. The first column always
     * stays. Cuts {@code cells} and {@code width} in place; returns the indexes of the columns
     * shown, in order.
     */
    private static int[] fit(Table table, String[][] cells, String[][] whole, int[] width, boolean[] right, int lineWidth,
                             boolean[] under) {
        int w = width.length;
        boolean[] gone = under.clone();
        int[] shown = kept(gone);
        if (lineWidth <= 0 || w == 0 || total(width, shown) <= lineWidth) return shown;
        shown = drop(table, width, gone, lineWidth, c -> empty(table, c));
        cutText(table, cells, whole, width, right, shown, lineWidth, SOFT_TEXT);
        shown = drop(table, width, gone, lineWidth, c -> table.columns().get(c).optional());
        cutText(table, cells, whole, width, right, shown, lineWidth, MIN_TEXT);
        return drop(table, width, gone, lineWidth, c -> true);
    }

    /**
     * Leaves out columns that pass {@code which}, right to left (never the first, never a statement),
     * until the table fits.
     */
    private static int[] drop(Table table, int[] width, boolean[] gone, int lineWidth, IntPredicate which) {
        int[] shown = kept(gone);
        for (int c = gone.length - 1; c >= 1 && total(width, shown) > lineWidth; c--) {
            if (gone[c] || statement(table, c) || !which.test(c)) continue;
            gone[c] = true;
            shown = kept(gone);
        }
        return shown;
    }

    /**
     * Cuts the widest shown text column, never below {@code floor} or its header, until the table
     * fits. The key column (the first text column: the name a row is about) keeps
     * {@link #SOFT_TEXT} columns while the others go down to {@code floor}.
     */
    private static void cutText(Table table, String[][] cells, String[][] whole, int[] width, boolean[] right, int[] shown,
                                int lineWidth, int floorText) {
        int key = -1;
        for (int c : shown) if (!right[c]) { key = c; break; }
        while (total(width, shown) > lineWidth) {
            int widest = -1;
            for (int c : shown) {
                int floor = floor(table, c, key, floorText);
                if (!right[c] && !statement(table, c) && width[c] > floor && (widest < 0 || width[c] > width[widest])) widest = c;
            }
            if (widest < 0) return;
            // down to the next widest text column at most, so long columns share the cut
            int floor = floor(table, widest, key, floorText);
            int second = floor;
            for (int c : shown) if (c != widest && !right[c] && !statement(table, c)) second = Math.max(second, Math.min(width[c], width[widest]));
            int next = Math.max(floor, Math.max(second, width[widest] - (total(width, shown) - lineWidth)));
            width[widest] = next < width[widest] ? next : width[widest] - 1;
            for (int r = 0; r < cells.length; r++) cells[r][widest] = cut(whole[r][widest], width[widest]);
        }
    }

    private static int floor(Table table, int c, int key, int floorText) {
        return Math.max(c == key ? Math.max(floorText, SOFT_TEXT) : floorText, displayWidth(table.columns().get(c).name()));
    }

    private static int[] kept(boolean[] gone) {
        int k = 0;
        for (boolean g : gone) if (!g) k++;
        int[] out = new int[k];
        for (int c = 0, i = 0; c < gone.length; c++) if (!gone[c]) out[i++] = c;
        return out;
    }

    /** Every cell null, a zero number, or empty text (a column a narrow screen loses nothing by). */
    private static boolean empty(Table table, int c) {
        if (table.size() == 0) return false;
        for (int r = 0; r < table.size(); r++) {
            Object v = table.cell(r, c);
            if (v == null) continue;
            if (v instanceof Number num && num.doubleValue() == 0) continue;
            if (v instanceof String str && str.isEmpty()) continue;
            return false;
        }
        return true;
    }

    /**
     * One line naming the columns left out and the columns whose text was cut (for the terminal's
     * width or {@code maxwidth}), and how to see them whole; null when nothing was lost.
     */
    private static String lostNote(Table table, int[] shown, boolean[] under, String[][] cells, String[][] whole,
                                   FormatOptions options, boolean fitted) {
        List<String> gone = new ArrayList<>();
        List<String> cut = new ArrayList<>();
        List<String> below = new ArrayList<>();
        int next = 0;
        for (int c = 0; c < table.width(); c++) {
            if (next < shown.length && shown[next] == c) {
                next++;
                for (int r = 0; r < cells.length; r++) {
                    if (!cells[r][c].equals(whole[r][c])) {
                        cut.add(table.columns().get(c).name());
                        break;
                    }
                }
            } else if (under[c]) {
                below.add(table.columns().get(c).name());
            } else {
                gone.add(table.columns().get(c).name());
            }
        }
        String moved = below.isEmpty() ? "" : String.join(", ", below) + " printed whole under each row";
        if (gone.isEmpty() && cut.isEmpty()) return below.isEmpty() ? null : moved;
        // cut for the terminal's width, or only at maxwidth on a terminal wide enough
        String why = fitted ? "to fit " + options.lineWidth() + " columns" : "at maxwidth " + options.maxCellWidth();
        StringBuilder b = new StringBuilder();
        if (!gone.isEmpty()) b.append(columns(gone)).append(" left out");
        if (!cut.isEmpty()) b.append(gone.isEmpty() ? "" : ", ").append(columns(cut)).append(" cut with …");
        b.append(' ').append(why).append(" (set maxwidth 0, or --format markdown, shows ")
                .append(gone.size() + cut.size() == 1 ? "it" : "them").append(" whole)");
        return (below.isEmpty() ? "" : moved + "; ") + b;
    }

    private static String columns(List<String> names) {
        return (names.size() == 1 ? "column " : names.size() + " columns: ") + String.join(", ", names);
    }

    /** Appends {@code text} as lines of at most {@code width} columns, broken at spaces (0 = one line). */
    static void wrap(String text, int width, StringBuilder out) { Cells.wrap(text, width, out); }

    /** Line width of the columns {@code shown} with their gaps. */
    private static int total(int[] width, int[] shown) {
        int t = 0;
        for (int i = 0; i < shown.length; i++) t += width[shown[i]] + (i > 0 ? GAP.length() : 0);
        return t;
    }

    private static void cell(StringBuilder line, String s, int width, boolean right, boolean last, String style) {
        int pad = width - displayWidth(s);
        if (right) line.append(" ".repeat(pad));
        if (style != null) line.append(style).append(s).append(RESET);
        else line.append(s);
        if (!right && !last) line.append(" ".repeat(pad));
    }

    /**
     * Shortens {@code s} to {@code max} columns with {@code …}; 0 means no limit. A path-like value
     * (an op_name {@code jit(step)/jvp(...)/dot_general}, a file path, a handle {@code name#2}) loses
     * its middle, not its end: every op_name of a module starts alike, and its last part says which.
     */
    static String cut(String s, int max) {
        if (max <= 0 || displayWidth(s) <= max) return s;
        if (max >= MIDDLE_CUT_MIN && pathLike(s)) {
            int keep = max - 1;
            int head = keep / 3;
            int n = displayWidth(s);
            return s.substring(0, s.offsetByCodePoints(0, head)) + "…" + s.substring(s.offsetByCodePoints(0, n - (keep - head)));
        }
        int end = s.offsetByCodePoints(0, Math.max(0, max - 1));
        return s.substring(0, end) + "…";
    }

    /** Narrowest cut that keeps a head and a tail worth reading; narrower cells keep their start. */
    static final int MIDDLE_CUT_MIN = 8;

    /**
     * Text whose distinguishing part is at its end: a path ({@code /}) or a handle ({@code #}), one
     * word (prose and lists of several items, which mention paths, keep their start).
     */
    static boolean pathLike(String s) {
        return (s.indexOf('/') >= 0 || s.indexOf('#') >= 0) && s.indexOf(' ') < 0;
    }

    private static String stripRight(StringBuilder b) {
        int end = b.length();
        while (end > 0 && b.charAt(end - 1) == ' ') end--;
        return b.substring(0, end);
    }

    /** Terminal columns, counting code points (the dumps' box-drawing and × are one column each). */
    static int displayWidth(String s) { return Cells.displayWidth(s); }

    /** Escapes newlines, tabs and other control characters as {@code \n}, {@code \t}, {@code \x1b}. */
    static String visible(String s) { return visible(s, false); }

    /**
     * Text for a terminal: control characters escaped ({@code \x1b}, {@code \x07}) so they cannot
     * drive it (rename the window, move the cursor), as table cells are; with {@code keepLines},
     * line breaks and tabs stay as they are (what a script prints is text of several lines).
     */
    public static String visible(String s, boolean keepLines) { return Cells.visible(s, keepLines); }
}
