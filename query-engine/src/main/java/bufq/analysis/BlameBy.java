package bufq.analysis;

import java.util.Locale;

/** What {@code blame} attributes peak bytes to. */
public enum BlameBy {
    /** Framework op names ({@code metadata op_name}), at every prefix level of their {@code /} path. */
    OP_NAME,
    /** {@code source_file:source_line}. */
    SOURCE,
    /** The defining instruction's opcode. */
    OPCODE,
    /**
     * The Python stack that made the defining instruction, at every depth from the outermost frame
     * (a proto dump's {@code stack_frame_index}); the source line when the dump has no stacks.
     */
    STACK;

    /** Parses {@code op_name}, {@code source}, {@code opcode} or {@code stack} (case-insensitive), else null. */
    public static BlameBy parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "op_name", "opname", "op" -> OP_NAME;
            case "source", "src", "line" -> SOURCE;
            case "opcode" -> OPCODE;
            case "stack", "stacks" -> STACK;
            default -> null;
        };
    }
}
