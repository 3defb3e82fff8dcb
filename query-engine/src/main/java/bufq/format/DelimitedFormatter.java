package bufq.format;

import bufq.table.Output;
import bufq.table.Table;
import bufq.table.TextBlock;

import java.util.List;

/**
 * {@code csv} and {@code tsv}: a header row, then one line per row with raw values (bytes as plain
 * integers, fractions as fractions, null as an empty field). No title, row count or notes: the
 * output is data only. csv quotes per RFC 4180 (fields holding a comma, quote, CR or LF are
 * enclosed in quotes, quotes doubled); tsv cannot quote, so it escapes {@code \t \n \r \\} as
 * two-character sequences. Lines end with LF. On a terminal ({@link FormatOptions#terminal()})
 * other control characters are shown as {@code \x1b}. A result of several tables prints one section
 * per table: a {@code # NAME} line, the table, and a blank line before the next section.
 */
public final class DelimitedFormatter implements Formatter {
    public static final DelimitedFormatter CSV = new DelimitedFormatter("csv", ',');
    public static final DelimitedFormatter TSV = new DelimitedFormatter("tsv", '\t');

    private final String name;
    private final char separator;

    private DelimitedFormatter(String name, char separator) {
        this.name = name;
        this.separator = separator;
    }

    @Override public String name() { return name; }
    @Override public boolean forPeople() { return false; }

    /**
     * A result's data ({@link Results#data}), note columns left out: one table as it is; several as
     * one section each, headed {@code # NAME} (the key json gives it), a blank line between two, so
     * {@code awk '/^# advice$/,/^$/'} picks one; a text alone as it is.
     */
    @Override public void write(Result result, FormatOptions options, StringBuilder out) {
        List<Output> data = Results.data(result.outputs());
        if (data.size() > 1) {
            List<String> names = Results.keys(data);
            for (int i = 0; i < data.size(); i++) {
                if (i > 0) out.append('\n');
                out.append("# ").append(options.terminal() ? Cells.visible(names.get(i), false) : names.get(i)).append('\n');
                if (data.get(i) instanceof Table t) write(t.withoutJsonOnlyColumns(), options, out);
                else if (data.get(i) instanceof TextBlock tb) Results.text(tb.text(), false, out);
            }
            return;
        }
        for (Output o : data) {
            if (o instanceof Table t) write(t.withoutJsonOnlyColumns(), options, out);
            else if (o instanceof TextBlock tb) Results.text(tb.text(), false, out);
        }
    }

    @Override public void write(Table table, FormatOptions options, StringBuilder out) {
        int w = table.width();
        if (w == 0) return;
        for (int c = 0; c < w; c++) {
            if (c > 0) out.append(separator);
            field(table.columns().get(c).name(), options.terminal(), out);
        }
        out.append('\n');
        for (int r = 0; r < table.size(); r++) {
            for (int c = 0; c < w; c++) {
                if (c > 0) out.append(separator);
                field(Cells.raw(table.cell(r, c)), options.terminal(), out);
            }
            out.append('\n');
        }
    }

    /** On a terminal, an escape or bell byte from a dump's op_name must not reach it raw. */
    private void field(String s, boolean terminal, StringBuilder out) {
        if (separator == ',') {
            csv(terminal ? TableFormatter.visible(s) : s, out);
        } else if (!terminal) {
            tsv(s, out);
        } else {
            StringBuilder t = new StringBuilder(s.length());
            tsv(s, t);
            out.append(TableFormatter.visible(t.toString()));
        }
    }

    static void csv(String s, StringBuilder out) {
        boolean quote = false;
        for (int i = 0; i < s.length() && !quote; i++) {
            char ch = s.charAt(i);
            quote = ch == ',' || ch == '"' || ch == '\n' || ch == '\r';
        }
        if (!quote) {
            out.append(s);
            return;
        }
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"') out.append('"');
            out.append(ch);
        }
        out.append('"');
    }

    static void tsv(String s, StringBuilder out) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\\' -> out.append("\\\\");
                default -> out.append(ch);
            }
        }
    }
}
