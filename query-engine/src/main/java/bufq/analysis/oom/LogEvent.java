package bufq.analysis.oom;

import bufq.units.PrintedSize;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A line of the log around a failure that explains it, not a failure itself: XLA's
 * rematerialization warning, JAX's unusable donations, one jit compiled again and again, a
 * {@code memory_analysis} a CI printed, a BFC allocation its caller said was not a failure.
 *
 * @param line    1-based line in the paste
 * @param kind    {@code rematerialization}, {@code donation}, {@code recompilation}, {@code memory-analysis},
 *                {@code allocator-warning}
 * @param program the program it names ({@code jit_step}, {@code module_0008.jit__lambda}), or null
 * @param says    what it says, in one line
 * @param figures its sizes by their own words ({@code target}, {@code reduced to}, {@code temp_size_in_bytes}, ...)
 * @param shapes  the shapes it lists (a donation's lost buffers), as printed with JAX's dtype names
 * @param lines   every line it stands for (a recompilation: each compile of the program)
 */
public record LogEvent(int line, String kind, String program, String says, Map<String, PrintedSize> figures,
                       List<String> shapes, List<Integer> lines) {
    public LogEvent {
        figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
        shapes = List.copyOf(shapes);
        lines = List.copyOf(lines);
    }
}
