package bufq.table;

/** Preformatted text (a terminal chart, a message) printed as is in every format. */
public record TextBlock(String text) implements Output {}
