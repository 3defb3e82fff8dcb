package bufq.format;

import bufq.table.Table;

/**
 * A GitHub-flavoured Markdown table for bug reports: the title as a bold line, numeric columns
 * right-aligned ({@code ---:}), {@code |} escaped as {@code \|}, line breaks as {@code <br>}, emphasis
 * characters ({@code * ` _} outside words) escaped so names render as typed, then the
 * row count and notes as plain lines. Cells read like the table format (human sizes, null as empty).
 */
public final class MarkdownFormatter implements Formatter {
    @Override public String name() { return "markdown"; }
    @Override public boolean forPeople() { return true; }

    /**
     * The statement as a heading when echoed, then the outputs in order ({@link Results#inOrder}),
     * text in code fences so a chart keeps its lines.
     */
    @Override public void write(Result result, FormatOptions options, StringBuilder out) {
        if (result.heading() != null) out.append("#### `").append(result.heading().replace("`", "'")).append("`\n\n");
        Results.inOrder(result, this, true, options, out);
    }

    /** A blank line, so results pasted one after another render as separate tables. */
    @Override public String between() { return "\n"; }

    @Override public void write(Table table, FormatOptions options, StringBuilder out) {
        boolean terminal = options.terminal();
        options = new FormatOptions(options.rawSizes(), false);
        if (table.title() != null) out.append("**").append(escape(table.title(), terminal)).append("**\n\n");
        int w = table.width();
        if (w > 0) {
            out.append('|');
            for (int c = 0; c < w; c++) out.append(' ').append(escape(table.columns().get(c).name(), terminal)).append(" |");
            out.append("\n|");
            for (int c = 0; c < w; c++) out.append(Cells.numeric(table.columns().get(c).type()) ? " ---: |" : " --- |");
            out.append('\n');
            for (int r = 0; r < table.size(); r++) {
                out.append('|');
                for (int c = 0; c < w; c++) {
                    String s = Cells.human(table.cell(r, c), table.columns().get(c).type(), options);
                    out.append(' ').append(escape(s, terminal)).append(" |");
                }
                out.append('\n');
            }
            out.append('\n');
        }
        int n = table.size();
        out.append('(').append(n).append(n == 1 ? " row)" : " rows)").append('\n');
        for (String note : table.notes()) out.append('\n').append(escape(note, terminal)).append('\n');
        int[] all = new int[w];
        for (int c = 0; c < w; c++) all[c] = c;
        for (String note : Cells.columnNotes(table, all)) out.append('\n').append(escape(note, terminal)).append('\n');
    }

    /**
     * Makes text safe inside a table cell: pipes, backslashes before pipes, and line breaks. Other
     * control characters are shown escaped ({@code \x1b}) on a terminal, where they would drive it,
     * and kept exact in a file or pipe, as csv and tsv do.
     */
    static String escape(String s, boolean terminal) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '|' -> b.append("\\|");
                case '\\' -> b.append("\\\\");
                case '\r' -> {
                    if (i + 1 < s.length() && s.charAt(i + 1) == '\n') i++;
                    b.append("<br>");
                }
                case '\n' -> b.append("<br>");
                case '<' -> b.append("&lt;");
                case '*', '`' -> b.append('\\').append(ch);
                case '_' -> {
                    // jit_f stays as is (GitHub does not emphasise inside words); __main__ is escaped.
                    boolean inside = i > 0 && i + 1 < s.length() && Character.isLetterOrDigit(s.charAt(i - 1))
                            && Character.isLetterOrDigit(s.charAt(i + 1));
                    if (!inside) b.append('\\');
                    b.append(ch);
                }
                default -> {
                    if (terminal) b.append(TableFormatter.visible(String.valueOf(ch)));
                    else b.append(ch);
                }
            }
        }
        return b.toString();
    }
}
