package bufq.model;

import java.util.Map;

/**
 * What one run of a program asks the device for, summed over its buffer allocations the way XLA's
 * {@code CompiledMemoryStats::PopulateBufferStatsFromAllocations} sums them for JAX's
 * {@code compiled.memory_analysis()}: every entry-parameter allocation is an argument (and an alias
 * when it is also maybe-live-out: a donated buffer the output reuses), every maybe-live-out
 * allocation an output, every preallocated temp a temp. Only the device memory (colour 0, HBM on a
 * TPU) counts, as {@code memory_analysis()}'s device figures do: a TPU's VMEM, SMEM and host-offload
 * allocations are other memories ({@link #ofSpace} gives theirs). A figure the dump does not give
 * is -1 (the code size never is in a dump).
 *
 * @param constantBytes constants, which XLA leaves out of those four but a run holds all the same
 */
public record ProgramSizes(long argumentBytes, long outputBytes, long aliasBytes, long tempBytes,
                           long constantBytes, long codeBytes) {
    /** XLA's {@code Layout::kHostMemorySpace}: the colour of allocations in host memory. */
    public static final int HOST_COLOR = MemorySpace.HOST_OFFLOAD;

    /** A module without allocations (a report or a profile alone): nothing known. */
    public static final ProgramSizes UNKNOWN = new ProgramSizes(-1, -1, -1, -1, -1, -1);

    /**
     * The figures of {@code m}'s device-memory allocations (colour 0); {@link #UNKNOWN} when it has
     * no allocations. A module without colour 0 counts every colour but the host's.
     */
    public static ProgramSizes of(HloModule m) {
        if (m.allocations().isEmpty()) return UNKNOWN;
        boolean device = false;
        for (BufferAllocation a : m.allocations()) device |= a.color() == MemorySpace.DEVICE;
        return device ? ofSpace(m, MemorySpace.DEVICE) : sum(m, -1);
    }

    /** The same figures of one memory space's allocations (all zero when it has none). */
    public static ProgramSizes ofSpace(HloModule m, int color) {
        if (m.allocations().isEmpty()) return UNKNOWN;
        return sum(m, color);
    }

    /** @param color the colour counted, or -1 for every colour but the host's */
    private static ProgramSizes sum(HloModule m, int color) {
        long arg = 0, out = 0, alias = 0, temp = 0, constants = 0;
        for (BufferAllocation a : m.allocations()) {
            if (color < 0 ? a.color() == HOST_COLOR : a.color() != color) continue;
            long size = a.size();
            if (a.isParameter()) {
                arg += size;
                if (liveOut(a)) alias += size;
            }
            if (liveOut(a)) out += size;
            if (a.isTemp()) temp += size;
            if (a.constant()) constants += size;
        }
        return new ProgramSizes(arg, out, alias, temp, constants, -1);
    }

    /**
     * A module's total bytes, the one figure {@code summary} and {@code modules} show: what XLA prints
     * as {@code Total bytes used}. That is the sum of the allocation sizes when every size is known
     * exactly (a buffer-assignment dump, a proto); a memory-usage report lists sizes rounded
     * ({@code 1.82GiB}) and only the largest allocations, so there the report's own stated total is the
     * figure, then the sum of its per-colour totals (a report proto read alone, which lists no
     * allocation by index). The sum of the rounded sizes agrees with neither the dump nor itself.
     * Of a module with several memory spaces (a TPU's HBM, VMEM, SMEM, host offload) it is the device
     * memory's (colour 0): the figure XLA:TPU's compile-time out-of-memory check compares.
     */
    public static long totalBytes(HloModule m) {
        boolean exact = !m.allocations().isEmpty();
        for (BufferAllocation a : m.allocations()) exact &= a.sizeExact();
        boolean spaces = MemorySpace.several(m) && MemorySpace.colors(m).contains(MemorySpace.DEVICE);
        if (exact && spaces) {
            long s = 0;
            for (BufferAllocation a : m.allocations()) if (a.color() == MemorySpace.DEVICE) s = Math.addExact(s, a.size());
            return s;
        }
        if (exact) return m.totalBytes();
        HloModule.Info info = m.info();
        if (spaces && info.colorTotals().containsKey(MemorySpace.DEVICE)) return info.colorTotals().get(MemorySpace.DEVICE);
        if (info.claimedTotalBytes() != null) return info.claimedTotalBytes();
        if (!info.colorTotals().isEmpty()) {
            long s = 0;
            for (long v : info.colorTotals().values()) s = Math.addExact(s, v);
            return s;
        }
        return m.totalBytes();
    }

    /** XLA prints {@code output shape is} for exactly the maybe-live-out allocations; either says it. */
    public static boolean liveOut(BufferAllocation a) {
        return a.maybeLiveOut() || a.isOutput();
    }

    public boolean known() { return argumentBytes >= 0; }

    /**
     * What a run asks for, as {@code pjrt_executable.h} puts it: code + arguments + outputs - aliases
     * + temp, plus the constants; an unknown code size counts 0. -1 when nothing is known.
     */
    public long needsBytes() {
        if (!known()) return -1;
        return Math.max(codeBytes, 0) + argumentBytes + outputBytes - aliasBytes + tempBytes + constantBytes;
    }

    /** The arrays the caller holds after a run: arguments and outputs, a donated one once. */
    public long heldBytes() {
        return known() ? argumentBytes + outputBytes - aliasBytes : -1;
    }

    /**
     * JAX's {@code compiled.memory_analysis()} of one compile, as a {@code memory_analysis.json} beside
     * a dump records it (every {@code *_in_bytes} field, per chip on a TPU): XLA's own figures, held
     * against what bufq reads from the dump. A field the file does not give is -1.
     *
     * @param file where it was read, as the path was spelled
     * @param key  the module key of a file listing several ({@code module_0004.jit__lambda}), else null
     */
    public record Reported(String file, String key, long argumentBytes, long outputBytes, long aliasBytes,
                                    long tempBytes, long peakBytes, long codeBytes, long hostTempBytes,
                                    long hostArgumentBytes, long hostOutputBytes) {

        /** The figures of a map of {@code *_in_bytes} fields (a missing one is -1). */
        public static Reported of(String file, String key, Map<String, Long> f) {
            return new Reported(file, key, get(f, "argument_size_in_bytes"), get(f, "output_size_in_bytes"),
                    get(f, "alias_size_in_bytes"), get(f, "temp_size_in_bytes"), get(f, "peak_memory_in_bytes"),
                    get(f, "generated_code_size_in_bytes"), get(f, "host_temp_size_in_bytes"),
                    get(f, "host_argument_size_in_bytes"), get(f, "host_output_size_in_bytes"));
        }

        private static long get(Map<String, Long> f, String name) {
            Long v = f.get(name);
            return v == null ? -1 : v;
        }
    }
}
