package bufq.analysis;

import java.util.Locale;

/** What {@code blame} attributes peak bytes to. */
public enum BlameBy {
    /** Framework op names ({@code metadata op_name}), at every prefix level of their {@code /} path. */
    OP_NAME,
    /** {@code source_file:source_line}. */
    SOURCE,
    /** The defining instruction's opcode. */
    OPCODE;

    /** Parses {@code op_name}, {@code source} or {@code opcode} (case-insensitive), else null. */
    public static BlameBy parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "op_name", "opname", "op" -> OP_NAME;
            case "source", "src", "line" -> SOURCE;
            case "opcode" -> OPCODE;
            default -> null;
        };
    }
}
