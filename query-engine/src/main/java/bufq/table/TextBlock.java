package bufq.table;

/**
 * Preformatted text (a terminal chart, a message) printed as is in human formats.
 *
 * @param data the numbers the text draws (a chart's per-step table), printed instead of the text in
 *             data formats (csv, tsv, json); null when the text is all there is
 */
public record TextBlock(String text, Table data) implements Output {
    public TextBlock(String text) {
        this(text, null);
    }
}
