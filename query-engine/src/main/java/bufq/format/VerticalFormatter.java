package bufq.format;

import bufq.table.Column;
import bufq.table.ColumnType;
import bufq.table.Table;

/**
 * One field per line, as psql's {@code \x} and MySQL's {@code \G}: each row is a numbered record,
 * {@code -[ RECORD 1 ]---}, then a line per column, its name padded to the longest and its value
 * whole. For rows too wide for a terminal: nothing is cut or left out. With
 * {@link FormatOptions#lineWidth()} a value longer than the line (prose, a statement) is broken at
 * spaces onto lines under its start, so the terminal does not wrap it; a pipe gets it broken at
 * {@link FormatOptions#foldWidth()} the same way, every word kept (0: on one line). A null
 * field is empty. Then the row count and the notes, as the table format ends.
 */
public final class VerticalFormatter implements Formatter {
    @Override public String name() { return "vertical"; }
    @Override public boolean forPeople() { return true; }

    @Override public void write(Result result, FormatOptions options, StringBuilder out) {
        if (result.heading() != null) out.append("-- ").append(result.heading()).append('\n');
        Results.inOrder(result, this, false, options, out);
    }

    @Override public void write(Table table, FormatOptions options, StringBuilder out) {
        if (table.title() != null) Cells.wrap(Cells.visible(table.title(), false), options.wrapWidth(), out);
        int nameWidth = 0;
        for (Column c : table.columns()) nameWidth = Math.max(nameWidth, Cells.displayWidth(Cells.visible(c.name(), false)));
        for (int r = 0; r < table.size(); r++) {
            String head = "-[ RECORD " + (r + 1) + " ]";
            int rule = Math.max(head.length(), options.wrapWidth() > 0 ? Math.min(options.wrapWidth(), nameWidth + 20) : nameWidth + 20);
            out.append(head).append("-".repeat(rule - head.length())).append('\n');
            for (int c = 0; c < table.width(); c++) {
                Column col = table.columns().get(c);
                Object v = table.cell(r, c);
                String text = v == null ? "" : Cells.visible(Cells.human(v, col.type(), options), false);
                String name = Cells.visible(col.name(), false);
                String lead = name + " ".repeat(nameWidth - Cells.displayWidth(name)) + " | ";
                field(lead, text, options.wrapWidth(), col.type() != ColumnType.STATEMENT && options.lineWidth() > 0, out);
            }
        }
        int n = table.size();
        out.append('(').append(n).append(n == 1 ? " row)" : " rows)").append('\n');
        int[] all = new int[table.width()];
        for (int c = 0; c < all.length; c++) all[c] = c;
        for (String note : table.notes()) Cells.wrap(Cells.visible(note, false), options.wrapWidth(), out);
        for (String note : Cells.columnNotes(table, all)) Cells.wrap(Cells.visible(note, false), options.wrapWidth(), out);
    }

    /**
     * {@code lead} then {@code text}, wrapped at spaces to {@code width} with later lines under the
     * text's start (0: one line). A word longer than the room is broken too, unless {@code breakWords}
     * is false: a statement keeps its words whole, so that it can be copied and run as printed, and
     * so does every value in a pipe, which no terminal will wrap.
     */
    private static void field(String lead, String text, int width, boolean breakWords, StringBuilder out) {
        int room = width - lead.length();
        if (width <= 0 || room < 20 || Cells.displayWidth(text) <= room) {
            out.append(text.isEmpty() ? lead.stripTrailing() : lead + text).append('\n');
            return;
        }
        StringBuilder wrapped = new StringBuilder();
        Cells.wrap(text, room, wrapped);
        String indent = " ".repeat(lead.length() - 2) + "| ";
        boolean first = true;
        for (String line : wrapped.toString().split("\n")) {
            // a word longer than the room (a long op_name) is broken where the line ends, so the terminal does not
            for (int start = 0; start < line.length(); ) {
                int end = !breakWords || Cells.displayWidth(line.substring(start)) <= room ? line.length() : line.offsetByCodePoints(start, room);
                out.append(first ? lead : indent).append(line, start, end).append('\n');
                first = false;
                start = end;
            }
        }
    }
}
