package bufq.export;

import java.util.Locale;

/** What a pprof sample's location stack is made of ({@code export pprof ... by stack|op_name|source}). */
public enum ProfileStacks {
    /**
     * The value's Python stack: the whole stack where the dump has one (a {@code .hlo.pb}'s stack
     * frames, each a function with its file and line), else its op_name path split on {@code /}, root
     * first, with its source {@code file:line} as the leaf when the dump names one.
     */
    STACK,
    /** Only the op_name path, one frame per prefix ({@code jit(step)}, {@code jit(step)/jvp()}, ...). */
    OP_NAME,
    /** Only the source {@code file:line}: {@code go tool pprof -top} then lists {@code blame by source}. */
    SOURCE;

    /** Parses {@code stack}, {@code op_name} or {@code source} (case-insensitive), else null. */
    public static ProfileStacks parse(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "stack" -> STACK;
            case "op_name" -> OP_NAME;
            case "source" -> SOURCE;
            default -> null;
        };
    }
}
