package bufq.analysis.sharding;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every sharded TPU compile of the corpus held to its own meta.json (what JAX was asked for: each
 * argument's global shape, per-chip shape and PartitionSpec): the partitions are the chips, and each
 * entry parameter's per-device shape, global shape, pieces and replication agree with it.
 */
public class ShardingsCorpusTest {
    /** {@code "params['embed']": {"global_shape": "float32[256000,2048]", "per_chip_shape": "float32[256000,2048]"}. */
    private static final Pattern ARGUMENT = Pattern.compile(
            "\"([^\"]+)\": \\{\\s*\"global_shape\": \"(\\w+)\\[([\\d,]*)]\",\\s*\"per_chip_shape\": \"(\\w+)\\[([\\d,]*)]\"");
    private static final Pattern CHIPS = Pattern.compile("\"chips\": (\\d+)");

    public record Argument(String dtype, long[] global, long[] perChip) {}

    @Test
    void everyShardedCompileAgreesWithItsMetaJson() throws Exception {
        Path root = Corpus.requireSome("tpu");
        List<Path> folders;
        try (Stream<Path> s = Files.walk(root)) {
            folders = s.filter(p -> Files.isRegularFile(p.resolve("meta.json")) && Files.isDirectory(p.resolve("dump"))).sorted().toList();
        }
        int withText = 0, checked = 0;
        List<String> missing = new ArrayList<>();
        for (Path f : folders) {
            String meta = Files.readString(f.resolve("meta.json"));
            Map<String, Argument> args = arguments(meta);
            Matcher chips = CHIPS.matcher(meta);
            assertTrue(chips.find(), f + ": meta.json names its chips");
            HloModule m = DumpLoader.load(List.of(f.resolve("dump"))).get(0);
            Shardings s = Shardings.of(m);
            if (!s.known()) {
                // the README lists the folders whose HLO text was left out; the module says which file it would need
                assertTrue(s.missing().contains("after_optimizations.txt"), f + ": " + s.missing());
                missing.add(root.relativize(f).toString());
                continue;
            }
            withText++;
            assertEquals(Long.parseLong(chips.group(1)), s.partitions(), f + ": num_partitions is the chips");
            assertEquals(s.partitions(), Shardings.header(m).partitions(), f + ": the header alone says the same");
            assertEquals(s.perDeviceNote(), Shardings.header(m).perDeviceNote());
            for (HloValue v : m.values()) {
                ShardedParameter p = s.parameterOf(v);
                if (p == null || !"{}".equals(v.index()) || p.opName() == null) continue;
                Argument a = args.get(p.opName());
                assertNotNull(a, f + ": meta.json lists " + p.opName());
                String what = f.getFileName() + " " + p.opName();
                assertEquals(Arrays.toString(a.perChip()), Arrays.toString(v.shape().dims()), what + ": per-device shape");
                assertEquals(dtype(a.dtype()) + Arrays.toString(a.global()).replace(" ", ""), s.globalShape(v),
                        what + ": global shape");
                HloSharding h = s.shardingOf(v);
                assertEquals(Arrays.equals(a.global(), a.perChip()), h.replicated(), what + ": replicated");
                long pieces = 1;
                for (int i = 0; i < a.global().length; i++) pieces *= a.perChip()[i] == 0 ? 1 : a.global()[i] / a.perChip()[i];
                assertEquals(pieces, h.shards(), what + ": shards");
                checked++;
            }
        }
        assertTrue(withText >= 1, "a sharded compile with its HLO text: " + folders);
        assertTrue(checked >= 20, "arguments checked: " + checked);
    }

    /** {@code from instruction: %param.2 = f32[8192,1024]{...} parameter(0), sharding={devices=[4,1]<=[4]}, metadata={op_name="..."}}. */
    private static final Pattern DUMPED_PARAMETER = Pattern.compile(
            "^ from instruction: %([\\w.\\-]+) = \\w+\\[([\\d,]*)][^ ]* parameter\\(\\d+\\), sharding=(\\{[^}]*}), metadata=\\{op_name=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /**
     * Every sharded compile, with its HLO text or without: the entry parameters' instructions in
     * the dump's own Used values section state a sharding that agrees with meta.json (pieces,
     * replication, per-device shape), and with the HLO text's where the folder has it.
     */
    @Test
    void everyCompilesOwnInstructionsAgreeWithMetaJsonAndTheText() throws Exception {
        Path root = Corpus.requireSome("tpu");
        List<Path> folders;
        try (Stream<Path> s = Files.walk(root)) {
            folders = s.filter(p -> Files.isRegularFile(p.resolve("meta.json")) && Files.isDirectory(p.resolve("dump"))).sorted().toList();
        }
        int compiles = 0, checked = 0, againstText = 0;
        for (Path f : folders) {
            Map<String, Argument> args = arguments(Files.readString(f.resolve("meta.json")));
            Path values;
            try (Stream<Path> s = Files.list(f.resolve("dump"))) {
                values = s.filter(p -> p.getFileName().toString().contains("-buffer-assignment-values.txt")).findFirst().orElseThrow();
            }
            HloModule m = DumpLoader.load(List.of(f.resolve("dump"))).get(0);
            Shardings text = Shardings.of(m);
            Map<String, String> seen = new LinkedHashMap<>();
            java.io.InputStream in = Files.newInputStream(values);
            if (values.toString().endsWith(".gz")) in = new java.util.zip.GZIPInputStream(in);
            try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    Matcher d = DUMPED_PARAMETER.matcher(line);
                    if (!d.find() || seen.containsKey(d.group(1))) continue;
                    seen.put(d.group(1), d.group(3));
                    String path = d.group(4).replace("\\'", "'");
                    Argument a = args.get(path);
                    if (a == null) continue;   // an argument meta.json does not list (none in the corpus's programs)
                    String what = root.relativize(f) + " " + path;
                    HloSharding h = HloSharding.parse(d.group(3));
                    assertEquals(Arrays.toString(a.perChip()), "[" + d.group(2).replace(",", ", ") + "]", what + ": per-device shape");
                    assertEquals(Arrays.equals(a.global(), a.perChip()), h.replicated(), what + ": replicated");
                    long pieces = 1;
                    for (int i = 0; i < a.global().length; i++) pieces *= a.perChip()[i] == 0 ? 1 : a.global()[i] / a.perChip()[i];
                    assertEquals(pieces, h.shards(), what + ": shards");
                    checked++;
                    if (text.known()) {
                        ShardedParameter p = text.parameters().get(d.group(1));
                        assertNotNull(p, what + ": the HLO text's ENTRY has " + d.group(1));
                        assertEquals(d.group(3), p.sharding().text(), what + ": the text's sharding");
                        againstText++;
                    }
                }
            }
            assertTrue(!seen.isEmpty(), f + ": its entry parameters' instructions");
            compiles++;
        }
        assertEquals(folders.size(), compiles);
        String counts = "arguments checked: " + checked + ", against the text: " + againstText + ", in " + compiles + " compiles";
        assertTrue(checked >= compiles && againstText > 0, counts);
        // the whole corpus (24 compiles, 15 with the HLO text); the checkout's copy holds two of them
        if (compiles >= 20) assertTrue(checked >= 100 && againstText >= 50, counts);
    }

    @Test
    void aDumpWithoutItsHloTextNamesTheFileThatWouldGiveIt() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/transformer-2layer"))).get(0);
        Shardings s = Shardings.of(m);
        assertFalse(s.known());
        assertEquals(1, s.partitions());
        assertTrue(s.missing().startsWith("module_0000.jit_step.cpu_after_optimizations.txt (the optimized HLO text"), s.missing());
    }

    public static Map<String, Argument> arguments(String meta) {
        Map<String, Argument> out = new LinkedHashMap<>();
        Matcher m = ARGUMENT.matcher(meta);
        while (m.find()) out.put(m.group(1), new Argument(m.group(2), dims(m.group(3)), dims(m.group(5))));
        return out;
    }

    private static long[] dims(String s) {
        return s.isEmpty() ? new long[0] : Arrays.stream(s.split(",")).mapToLong(Long::parseLong).toArray();
    }

    /** numpy's dtype names as HLO's. */
    public static String dtype(String numpy) {
        return switch (numpy) {
            case "float32" -> "f32";
            case "bfloat16" -> "bf16";
            case "float16" -> "f16";
            case "int32" -> "s32";
            case "int8" -> "s8";
            case "uint32" -> "u32";
            case "bool" -> "pred";
            default -> numpy;
        };
    }
}
