package bufq.format;

import bufq.table.Column;
import bufq.table.Table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Aligned plain-text columns for the terminal: an optional title line, a header, a dashed rule, the
 * rows (numbers right-aligned), a {@code (N rows)} footer, then the table's notes. Nulls print as
 * {@code null}; control characters in cells are shown escaped so they cannot break the alignment
 * or drive the terminal. With {@link FormatOptions#color()} the header is bold and nulls dim; with
 * {@link FormatOptions#maxCellWidth()} long cells are cut with {@code …}; with
 * {@link FormatOptions#lineWidth()} a table wider than the terminal first has its widest text
 * columns cut, then loses columns from the right, with a note naming them.
 */
public final class TableFormatter implements Formatter {
    private static final String GAP = "  ";
    private static final String BOLD = "\033[1m";
    private static final String DIM = "\033[2m";
    private static final String RESET = "\033[0m";

    @Override public String name() { return "table"; }

    @Override public void write(Table table, FormatOptions options, StringBuilder out) {
        int w = table.width();
        int n = table.size();
        String[][] cells = new String[n][w];
        int[] width = new int[w];
        boolean[] right = new boolean[w];
        for (int c = 0; c < w; c++) {
            Column col = table.columns().get(c);
            right[c] = Cells.numeric(col.type());
            width[c] = displayWidth(visible(col.name()));
        }
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < w; c++) {
                String s = cut(visible(Cells.human(table.cell(r, c), table.columns().get(c).type(), options)), options.maxCellWidth());
                cells[r][c] = s;
                width[c] = Math.max(width[c], displayWidth(s));
            }
        }
        String dropped = fit(table, cells, width, right, options.lineWidth());
        if (dropped != null) w -= countDropped(dropped);
        if (table.title() != null) out.append(visible(table.title())).append('\n');
        if (w > 0) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < w; c++) {
                String name = visible(table.columns().get(c).name());
                if (c > 0) line.append(GAP);
                cell(line, name, width[c], right[c], c == w - 1, options.color() ? BOLD : null);
            }
            out.append(stripRight(line)).append('\n');
            line.setLength(0);
            for (int c = 0; c < w; c++) {
                if (c > 0) line.append(GAP);
                line.append("-".repeat(width[c]));
            }
            out.append(line).append('\n');
            for (int r = 0; r < n; r++) {
                line.setLength(0);
                for (int c = 0; c < w; c++) {
                    boolean isNull = table.cell(r, c) == null;
                    if (c > 0) line.append(GAP);
                    cell(line, cells[r][c], width[c], right[c], c == w - 1, isNull && options.color() ? DIM : null);
                }
                out.append(stripRight(line)).append('\n');
            }
        }
        out.append('(').append(n).append(n == 1 ? " row)" : " rows)").append('\n');
        for (String note : table.notes()) out.append(visible(note)).append('\n');
        if (dropped != null) out.append(dropped).append('\n');
    }

    /** Narrowest a text column is cut to before columns are left out instead. */
    static final int MIN_TEXT = 10;

    /**
     * Makes the table fit {@code lineWidth} columns: cuts the widest text column (never below
     * {@link #MIN_TEXT} or its header) until it fits, then leaves out columns from the right. Cuts
     * {@code cells} and {@code width} in place (rows shortened when columns go); returns the note
     * naming the columns left out, or null when none were.
     */
    private static String fit(Table table, String[][] cells, int[] width, boolean[] right, int lineWidth) {
        int w = width.length;
        if (lineWidth <= 0 || w == 0 || total(width, w) <= lineWidth) return null;
        while (total(width, w) > lineWidth) {
            int widest = -1;
            for (int c = 0; c < w; c++) {
                int floor = Math.max(MIN_TEXT, displayWidth(table.columns().get(c).name()));
                if (!right[c] && width[c] > floor && (widest < 0 || width[c] > width[widest])) widest = c;
            }
            if (widest < 0) break;
            // down to the next widest text column at most, so long columns share the cut
            int floor = Math.max(MIN_TEXT, displayWidth(table.columns().get(widest).name()));
            int second = floor;
            for (int c = 0; c < w; c++) if (c != widest && !right[c]) second = Math.max(second, Math.min(width[c], width[widest]));
            int next = Math.max(floor, Math.max(second, width[widest] - (total(width, w) - lineWidth)));
            width[widest] = next < width[widest] ? next : width[widest] - 1;
            for (String[] row : cells) row[widest] = cut(row[widest], width[widest]);
        }
        int keep = w;
        while (keep > 1 && total(width, keep) > lineWidth) keep--;
        if (keep == w) return null;
        for (int r = 0; r < cells.length; r++) cells[r] = Arrays.copyOf(cells[r], keep);
        List<String> gone = new ArrayList<>();
        for (int c = keep; c < w; c++) gone.add(table.columns().get(c).name());
        return (w - keep) + " column" + (w - keep == 1 ? "" : "s") + " left out to fit " + lineWidth + " columns: "
                + String.join(", ", gone) + " (show picks columns; a wider terminal shows more)";
    }

    private static int countDropped(String note) {
        return Integer.parseInt(note.substring(0, note.indexOf(' ')));
    }

    /** Line width of the first {@code n} columns with their gaps. */
    private static int total(int[] width, int n) {
        int t = 0;
        for (int c = 0; c < n; c++) t += width[c] + (c > 0 ? GAP.length() : 0);
        return t;
    }

    private static void cell(StringBuilder line, String s, int width, boolean right, boolean last, String style) {
        int pad = width - displayWidth(s);
        if (right) line.append(" ".repeat(pad));
        if (style != null) line.append(style).append(s).append(RESET);
        else line.append(s);
        if (!right && !last) line.append(" ".repeat(pad));
    }

    /** Shortens {@code s} to {@code max} columns ending in {@code …}; 0 means no limit. */
    static String cut(String s, int max) {
        if (max <= 0 || displayWidth(s) <= max) return s;
        int end = s.offsetByCodePoints(0, Math.max(0, max - 1));
        return s.substring(0, end) + "…";
    }

    private static String stripRight(StringBuilder b) {
        int end = b.length();
        while (end > 0 && b.charAt(end - 1) == ' ') end--;
        return b.substring(0, end);
    }

    /** Terminal columns, counting code points (the dumps' box-drawing and × are one column each). */
    static int displayWidth(String s) {
        return s.codePointCount(0, s.length());
    }

    /** Escapes newlines, tabs and other control characters as {@code \n}, {@code \t}, {@code \x1b}. */
    static String visible(String s) {
        int i = 0;
        while (i < s.length() && !isControl(s.charAt(i))) i++;
        if (i == s.length()) return s;
        StringBuilder b = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (!isControl(ch)) b.append(ch);
            else if (ch == '\n') b.append("\\n");
            else if (ch == '\t') b.append("\\t");
            else if (ch == '\r') b.append("\\r");
            else b.append(String.format("\\x%02x", (int) ch));
        }
        return b.toString();
    }

    private static boolean isControl(char ch) {
        return ch < 0x20 || ch == 0x7f || (ch >= 0x80 && ch < 0xa0);
    }
}
