package bufq.model;

import java.util.Map;

/**
 * JAX's {@code compiled.memory_analysis()} of one compile, as a {@code memory_analysis.json} beside
 * a dump records it (every {@code *_in_bytes} field, per chip on a TPU): XLA's own figures, held
 * against what bufq reads from the dump. A field the file does not give is -1.
 *
 * @param file where it was read, as the path was spelled
 * @param key  the module key of a file listing several ({@code module_0004.jit__lambda}), else null
 */
public record JaxMemoryAnalysis(String file, String key, long argumentBytes, long outputBytes, long aliasBytes,
                                long tempBytes, long peakBytes, long codeBytes, long hostTempBytes,
                                long hostArgumentBytes, long hostOutputBytes) {

    /** The figures of a map of {@code *_in_bytes} fields (a missing one is -1). */
    public static JaxMemoryAnalysis of(String file, String key, Map<String, Long> f) {
        return new JaxMemoryAnalysis(file, key, get(f, "argument_size_in_bytes"), get(f, "output_size_in_bytes"),
                get(f, "alias_size_in_bytes"), get(f, "temp_size_in_bytes"), get(f, "peak_memory_in_bytes"),
                get(f, "generated_code_size_in_bytes"), get(f, "host_temp_size_in_bytes"),
                get(f, "host_argument_size_in_bytes"), get(f, "host_output_size_in_bytes"));
    }

    private static long get(Map<String, Long> f, String name) {
        Long v = f.get(name);
        return v == null ? -1 : v;
    }
}
