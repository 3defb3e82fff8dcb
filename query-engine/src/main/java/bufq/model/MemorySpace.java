package bufq.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * XLA's memory spaces (an allocation's or value's colour) by name. Colour 0 is the device memory
 * (HBM on a TPU or GPU, RAM on a CPU): every figure users compare with a device's memory is of it.
 * The others are other memories, reported on their own: on TPU 1 VMEM (on-chip scratch), 2 SMEM,
 * 4 a few KiB of host memory, 5 the layouts' {@code S(5)}, where JAX's host offload
 * ({@code pinned_host}) puts values and {@code memory_analysis()} counts them as
 * {@code host_temp_size_in_bytes} (the memory-usage report names it {@code cmem}).
 */
public final class MemorySpace {
    private MemorySpace() {}

    /** The device memory's colour. */
    public static final int DEVICE = 0;

    /** XLA's {@code Layout::kHostMemorySpace}: the colour of values offloaded to host memory. */
    public static final int HOST_OFFLOAD = 5;

    /** What XLA:TPU's memory-usage report names each colour ({@code Memory Space: vmem (color=1)}). */
    private static final Map<Integer, String> TPU = Map.of(1, "vmem", 2, "smem", 4, "host", 6, "color_6");

    /**
     * The name bufq gives colour {@code color} of {@code m}: {@code hbm} for colour 0 on an
     * accelerator ({@code default} on a CPU), {@code host-offload} for colour 5 (the report's
     * {@code cmem}), else the report's own name, else the TPU's usual name, else {@code color N}.
     */
    public static String name(HloModule m, int color) {
        String backend = m.info().backend();
        boolean accelerator = "tpu".equals(backend) || "gpu".equals(backend);
        if (color == DEVICE) return accelerator ? "hbm" : "default";
        if (color == HOST_OFFLOAD && !"gpu".equals(backend)) return "host-offload";
        String reported = m.info().spaceNames().get(color);
        if (reported != null) return reported;
        if ("tpu".equals(backend) && TPU.containsKey(color)) return TPU.get(color);
        return "color_" + color;
    }

    /** Whether {@code m} has memory spaces other than the device memory (a CPU dump has not). */
    public static boolean several(HloModule m) { return colors(m).size() > 1; }

    /** The colours of {@code m}'s allocations and values, ascending. */
    public static List<Integer> colors(HloModule m) {
        TreeSet<Integer> cs = new TreeSet<>();
        for (BufferAllocation a : m.allocations()) cs.add(a.color());
        if (cs.isEmpty()) for (HloValue v : m.values()) cs.add(v.color());
        return new ArrayList<>(cs);
    }

    /**
     * The colour a word names in {@code m}: a colour number, bufq's or the report's name of a space
     * ({@code vmem}, {@code cmem}), or {@code device}/{@code hbm}/{@code default} for colour 0 and
     * {@code host-offload}/{@code offload}/{@code pinned_host} for colour 5; empty when it names none.
     */
    public static OptionalInt byName(HloModule m, String word) {
        String w = word.trim().toLowerCase(Locale.ROOT);
        try {
            return OptionalInt.of(Integer.parseInt(w));
        } catch (NumberFormatException e) {
            // a name
        }
        if (w.equals("device") || w.equals("hbm") || w.equals("default")) return OptionalInt.of(DEVICE);
        if (w.equals("offload") || w.equals("host-offload") || w.equals("pinned_host")) return OptionalInt.of(HOST_OFFLOAD);
        for (int c : colors(m)) {
            if (name(m, c).equals(w) || w.equals(m.info().spaceNames().get(c))) return OptionalInt.of(c);
        }
        return OptionalInt.empty();
    }

    /**
     * The allocation bytes of each memory space but the device's, as {@code vmem 112.0MiB, smem 252B};
     * null when {@code m} has only the device memory.
     */
    public static String others(HloModule m, LongFunction<String> bytes) {
        TreeMap<Integer, Long> by = new TreeMap<>();
        for (BufferAllocation a : m.allocations()) by.merge(a.color(), a.size(), Long::sum);
        by.remove(DEVICE);
        if (by.isEmpty()) return null;
        List<String> out = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : by.entrySet()) out.add(name(m, e.getKey()) + " " + bytes.apply(e.getValue()));
        return String.join(", ", out);
    }

    /** The spaces of {@code m} as {@code name (color N)}, for a message listing them. */
    public static String list(HloModule m) {
        List<String> out = new ArrayList<>();
        for (int c : colors(m)) out.add(name(m, c) + " (color " + c + ")");
        return String.join(", ", out);
    }
}
