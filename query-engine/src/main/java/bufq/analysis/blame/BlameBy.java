package bufq.analysis.blame;

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
    STACK,
    /** What the memory is ({@code bufq.analysis.category}): weights, optimizer state, residuals, ..., each byte in one. */
    CATEGORY,
    /** op_name and parameter paths with the paths that differ only in an index folded, as a tree. */
    PATH,
    /**
     * The replication audit: entry parameters replicated or cut fewer ways than the mesh has
     * devices, with their optimizer state and copies, each with the saving sharding them would
     * measure ({@code bufq.analysis.advise.ShardingAudit}).
     */
    SHARDING;

    /** Parses {@code op_name}, {@code source}, {@code opcode}, {@code stack}, {@code category}, {@code path} or {@code sharding} (case-insensitive), else null. */
    public static BlameBy parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "op_name", "opname", "op" -> OP_NAME;
            case "source", "src", "line" -> SOURCE;
            case "opcode" -> OPCODE;
            case "stack", "stacks" -> STACK;
            case "category", "categories" -> CATEGORY;
            case "path", "paths" -> PATH;
            case "sharding", "shardings", "shard" -> SHARDING;
            default -> null;
        };
    }
}
