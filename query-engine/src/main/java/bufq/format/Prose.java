package bufq.format;

/**
 * Text for a terminal of a given width: each line wider than it broken at spaces, its continuation
 * lines indented two columns past where the line's words start (past a tree's {@code ├──}), so a
 * message, a help page or a stack tree reads whole at 80 columns instead of wrapping mid-word.
 * Lines of a drawing (a chart's bars and axes) are left as they are: the command drew them for
 * the width it was given. A word longer than the line keeps a line of its own.
 */
public final class Prose {
    private Prose() {}

    /** Columns a continuation line is indented past the start of its line's words. */
    static final int HANG = 2;

    /** {@code text} with its lines fitted to {@code width} columns (0: as it is). */
    public static String fit(String text, int width) {
        if (width <= 0 || fits(text, width)) return text;
        StringBuilder out = new StringBuilder(text.length() + 64);
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) out.append('\n');
            line(lines[i], width, out);
        }
        return out.toString();
    }

    private static boolean fits(String text, int width) {
        for (String l : text.split("\n", -1)) if (Cells.displayWidth(l) > width) return false;
        return true;
    }

    private static void line(String line, int width, StringBuilder out) {
        if (Cells.displayWidth(line) <= width || drawn(line)) {
            out.append(line);
            return;
        }
        int lead = 0;
        while (lead < line.length() && (line.charAt(lead) == ' ' || tree(line.charAt(lead)))) lead++;
        String indent = " ".repeat(Math.min(Cells.displayWidth(line.substring(0, lead)) + HANG, width / 2));
        StringBuilder wrapped = new StringBuilder();
        Cells.wrap(line.substring(lead), width - Cells.displayWidth(line.substring(0, lead)), wrapped);
        String[] parts = wrapped.toString().split("\n");
        out.append(line, 0, lead).append(parts[0]);
        // the rest, rewrapped to the width the indent leaves
        if (parts.length > 1) {
            String rest = line.substring(lead + parts[0].length()).strip();
            StringBuilder more = new StringBuilder();
            Cells.wrap(rest, width - indent.length(), more);
            for (String p : more.toString().split("\n")) out.append('\n').append(indent).append(p);
        }
    }

    /** The box-drawing lines of a tree ({@code │ ├── └──}), which start a line before its words. */
    private static boolean tree(char ch) {
        return ch == '│' || ch == '├' || ch == '└' || ch == '─';
    }

    /**
     * A line of a drawing: block elements or braille (bars), or an axis' ticks and marks. Charts are
     * drawn to the width they were asked for; breaking one would tear it.
     */
    private static boolean drawn(String line) {
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch >= 0x2580 && ch <= 0x259f || ch >= 0x2800 && ch <= 0x28ff || ch == '┤' || ch == '┬' || ch == '┼' || ch == '▲' || ch == '┴')
                return true;
        }
        return false;
    }
}
