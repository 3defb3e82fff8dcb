package bufq.analysis.sharding;

import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.Shape;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one SPMD module is laid over its devices, read from the optimized HLO text beside its dump
 * ({@code module_0000.jit_step...after_optimizations.txt}, or {@code .txt.gz}), else from the module's
 * {@code .hlo.pb} (its instructions' OpSharding; no num_partitions there: the devices are the most
 * any parameter's sharding spans), on first use and kept
 * with the module: {@code num_partitions}, {@code replica_count} and each entry parameter's sharding.
 * One SPMD module serves every device, so every shape and size of its dump is one device's.
 * Immutable.
 *
 * @param partitions {@code num_partitions} (1 when the header names none, or without the text)
 * @param replicas   {@code replica_count}
 * @param source     the HLO text read, or null
 * @param missing    without {@code source}: which file would give the sharding, and why it was not read
 * @param parameters the entry parameters by instruction name, in the text's order
 */
public record Shardings(long partitions, long replicas, String source, String missing, Map<String, ShardedParameter> parameters) {
    public Shardings {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /** The suffixes of the dump files beside which the HLO text lies, after its common prefix. */
    private static final List<String> KINDS = List.of("-buffer-assignment-values.txt", "-buffer-assignment.txt",
            "-live-range.txt", "-memory-usage-report.txt", ".hlo.pb", "-memory-usage-report.pb");

    /** What {@code m}'s HLO text says, read once and kept with the module. */
    public static Shardings of(HloModule m) {
        return m.derived(Shardings.class, x -> read(x, false));
    }

    /**
     * What the first line of {@code m}'s HLO text says ({@code num_partitions}, {@code replica_count}),
     * without its parameters: what listing modules and the per-device notes need, without reading
     * the whole text. Kept with the module.
     */
    public static Shardings header(HloModule m) {
        return m.derived(Header.class, x -> new Header(read(x, true))).shardings();
    }

    private record Header(Shardings shardings) {}

    /** The sharding read from HLO text held in memory (tests, and a module whose text came otherwise). */
    public static Shardings ofText(String text, String shown) {
        try {
            return of(HloTextShardings.read(new BufferedReader(new StringReader(text)), shown), shown);
        } catch (IOException e) {
            return new Shardings(1, 1, null, e.getMessage(), Map.of());
        }
    }

    private static Shardings of(HloTextShardings.Read r, String source) {
        return new Shardings(r.partitions(), r.replicas(), source, null, r.parameters());
    }

    private static Shardings read(HloModule m, boolean headerOnly) {
        String wanted = null;
        for (String f : m.info().files()) {
            String base = base(f);
            if (base == null) continue;
            for (String name : List.of(base + ".txt", base + ".txt.gz")) {
                Path p = Path.of(name);
                if (!Files.isRegularFile(p)) continue;
                try {
                    return of(headerOnly ? HloTextShardings.header(p, name) : HloTextShardings.read(p, name), name);
                } catch (IOException | RuntimeException e) {
                    return new Shardings(1, 1, null, name + " could not be read: " + e.getMessage(), Map.of());
                }
            }
            if (wanted == null) wanted = Path.of(base + ".txt").getFileName().toString();
        }
        // no text: an .hlo.pb holds each instruction's OpSharding (but no num_partitions)
        for (String f : m.info().files()) {
            String n = f.endsWith(".gz") ? f.substring(0, f.length() - 3) : f;
            if (!n.endsWith(".hlo.pb") || !Files.isRegularFile(Path.of(f))) continue;
            try {
                return of(HloProtoShardings.read(Path.of(f), f), f);
            } catch (IOException | RuntimeException e) {
                return new Shardings(1, 1, null, f + " could not be read for its shardings: " + e.getMessage(), Map.of());
            }
        }
        return new Shardings(1, 1, null, wanted == null
                ? "the module's optimized HLO text would give it (XLA_FLAGS=--xla_dump_to=DIR writes it beside the dump)"
                : wanted + " (the optimized HLO text, which XLA_FLAGS=--xla_dump_to=DIR writes beside the dump) would give it", Map.of());
    }

    /** The dump file's name without its kind and {@code .gz}: the HLO text's name without {@code .txt}; null for another file. */
    static String base(String file) {
        String n = file.endsWith(".gz") ? file.substring(0, file.length() - 3) : file;
        for (String k : KINDS) if (n.endsWith(k)) return n.substring(0, n.length() - k.length());
        return null;
    }

    /** Whether the HLO text was read. */
    public boolean known() { return source != null; }

    /** More than one device: every figure of the dump is one device's. */
    public boolean spmd() { return partitions * replicas > 1; }

    /** The entry parameter {@code v} is (its defining instruction a parameter of the text's ENTRY), or null. */
    public ShardedParameter parameterOf(HloValue v) {
        return parameters.get(v.name());
    }

    /** The sharding of value {@code v} when it is an entry parameter (or a leaf of a tuple one), else null. */
    public HloSharding shardingOf(HloValue v) {
        ShardedParameter p = parameterOf(v);
        if (p == null || p.sharding() == null) return null;
        return p.sharding().at(v.index());
    }

    /** The global shape of entry parameter {@code v} ({@code f32[256000,2048]}), or null. */
    public String globalShape(HloValue v) {
        HloSharding s = shardingOf(v);
        Shape shape = v.shape();
        if (s == null || shape == null || !shape.isArray()) return null;
        long[] g = s.globalDims(shape.dims());
        StringBuilder b = new StringBuilder(shape.dtype()).append('[');
        for (int i = 0; i < g.length; i++) b.append(i == 0 ? "" : ",").append(g[i]);
        return b.append(']').toString();
    }

    /** {@code per device, 1 of 4} for an SPMD module; null for one device. */
    public String perDeviceNote() {
        if (!spmd()) return null;
        long n = partitions * replicas;
        return "per device, 1 of " + n + " (" + (replicas > 1 ? "replica_count=" + replicas + ", " : "") + "num_partitions=" + partitions
                + " in " + fileName(source) + "): one SPMD program serves every device, so every size and shape here is one device's";
    }

    private static String fileName(String f) {
        Path p = Path.of(f).getFileName();
        return p == null ? f : p.toString();
    }
}
