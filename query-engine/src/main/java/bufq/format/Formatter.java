package bufq.format;

import bufq.table.Table;

/**
 * An output format, registered by name in {@link Formatters}. It renders a statement's whole result
 * (what heads it, its tables and text, what ends it) and says how results follow one another in one
 * output, so the session that prints never asks which format it has. Pure: the same result and
 * options give the same text.
 */
public interface Formatter {
    /** The name used by {@code --format} and {@code format NAME}. */
    String name();

    /**
     * Whether results in this format are read by people rather than programs: tables are cut to
     * {@code maxrows} ({@link Result#maxRows}), notes and charts show.
     */
    boolean forPeople();

    /** Appends the rendering of one table, ending with a newline. */
    void write(Table table, FormatOptions options, StringBuilder out);

    /**
     * Appends the rendering of one statement's whole result, ending with a newline.
     *
     * @throws IllegalArgumentException the format cannot hold this result; the message names what it
     *                                  holds and what to use instead
     */
    void write(Result result, FormatOptions options, StringBuilder out);

    /**
     * Appends a line a script prints ({@code print}): the line itself, on a terminal with its control
     * characters escaped ({@code \x1b}) as cells are, so a script cannot drive the terminal.
     */
    default void line(String text, FormatOptions options, StringBuilder out) {
        out.append(options.terminal() ? Cells.visible(text, true) : text).append('\n');
    }

    /** What goes between two results in one output, after the first. */
    default String between() { return ""; }

    /** A new document of this format's results: each written as it is, unless the format joins them. */
    default Document document() { return Document.EACH; }

    /**
     * How the results written to one output make documents: json joins them into one document (the
     * first alone, an array once a second comes) until {@link #end}; other formats write each result
     * as it is.
     */
    interface Document {
        /** Every result as it is, nothing to close. */
        Document EACH = new Document() {
            @Override public String add(String rendered, boolean alone) { return rendered; }
            @Override public String end() { return ""; }
        };

        /**
         * What to write now for a rendered result (or a printed line), null for nothing yet (json
         * holds a first result until it knows whether a second comes); {@code alone}: it is a
         * document of its own, outside the one under way (the init script's output at an idle prompt).
         */
        String add(String rendered, boolean alone);

        /** What ends the document under way, empty when nothing is open; the next result starts a new one. */
        String end();
    }
}
