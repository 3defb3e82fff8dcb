package bufq.shell.cli;

import java.util.List;

/**
 * Checks of printed text by its structure, not its wording: line widths, cut cells and their
 * pointer, {@code null} cells in each format. Each adds what it finds to a list of problems.
 */
final class Screen {
    private Screen() {}

    /**
     * Lines wider than {@code columns} (but for one word longer than the line, which no break can
     * help), and a table cell cut with {@code …} with no word anywhere in the output on how to see it
     * whole (a note saying "whole", or the vertical format).
     */
    static void check(String statement, String text, int columns, List<String> problems) {
        // a progress line ends in a carriage return, the next one overwrites it
        for (String line : text.replaceAll("\033\\[[0-9;]*[A-Za-z]", "").split("[\r\n]")) {
            int width = line.codePointCount(0, line.length());
            // past the indent, a tree's branches or a vertical field's bar, one word: nowhere to break
            if (width > columns && line.replaceFirst("^[ │├└─|]+", "").contains(" ")) {
                problems.add("'" + statement + "': a line of " + width + " columns at " + columns + ":\n" + line + "\n--- in:\n" + text);
                break;
            }
        }
        if (tableRows(text).contains("…") && !text.contains("whole") && !text.contains("vertical"))
            problems.add("'" + statement + "': a cell cut with … and no way named to see it whole:\n" + text);
    }

    /** The rows of the tables in {@code text}: the lines between a dashed rule and a row count. */
    static String tableRows(String text) {
        StringBuilder b = new StringBuilder();
        boolean rows = false;
        for (String line : text.split("\n")) {
            if (line.matches("-+( +-+)*")) rows = true;
            else if (line.matches("\\(\\d+ rows?\\)")) rows = false;
            else if (rows) b.append(line).append('\n');
        }
        return b.toString();
    }

    /**
     * A cell reading {@code null} in {@code format} (json is not held to it: its null is the typed
     * "no value" the query semantics define, an empty cell in every other format).
     */
    static void nulls(String format, String statement, String text, List<String> problems) {
        boolean found = switch (format) {
            case "table" -> tableNull(text);
            case "vertical" -> text.lines().anyMatch(l -> l.matches("[^ |]+ +\\| null"));
            case "markdown" -> text.lines().anyMatch(l -> l.startsWith("|") && l.contains("| null |"));
            case "csv" -> delimitedNull(text, ",");
            case "tsv" -> delimitedNull(text, "\t");
            default -> throw new IllegalArgumentException(format);
        };
        if (found) problems.add(format + ": a null cell in the output of '" + statement + "':\n" + text);
    }

    /** A row of a table (between its dashed rule and its row count) with a cell reading null. */
    private static boolean tableNull(String text) {
        for (String line : tableRows(text).split("\n"))
            for (String cell : line.strip().split(" {2,}")) if (cell.equals("null")) return true;
        return false;
    }

    private static boolean delimitedNull(String text, String separator) {
        for (String line : text.split("\n"))
            for (String cell : line.split(separator, -1)) if (cell.equals("null")) return true;
        return false;
    }

    /** The first line where {@code a} and {@code b} differ, with a line of context each side. */
    static String difference(String a, String b) {
        String[] x = a.split("\n", -1), y = b.split("\n", -1);
        int i = 0;
        while (i < x.length && i < y.length && x[i].equals(y[i])) i++;
        StringBuilder s = new StringBuilder("at line " + (i + 1) + ":\n");
        for (int k = Math.max(0, i - 1); k <= i + 1; k++) {
            if (k < x.length) s.append("  alone: ").append(x[k]).append('\n');
            if (k < y.length) s.append("  after: ").append(y[k]).append('\n');
        }
        return s.toString();
    }
}
