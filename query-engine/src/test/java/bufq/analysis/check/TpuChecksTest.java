package bufq.analysis.check;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.testing.Corpus;
import bufq.testing.TestModules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checks on what real XLA:TPU compiles hold: untiled arrays (sync flags, scalars) sized in runs of
 * 1024 elements outside SMEM, and outputs an instruction writes in place of one operand sharing
 * bytes. Each rule is held quiet on what XLA writes and loud on a dump changed to break it.
 */
class TpuChecksTest {
    private static final String FLAG = "s32[2]{0:S(4)}";

    private static List<Finding> errors(HloModule m, String check) {
        return Checks.check(m, TilingModel.TPU, List.of()).of(check).stream()
                .filter(f -> f.severity() == Severity.ERROR).toList();
    }

    @Test
    void untiledArraysTakeRunsOf1024ElementsOutsideSmem() {
        // as in tpu/train-fsdp: a sync flag of 4096 bytes (S(4)), u32[] of 4096 and pred[] of 1024 (S(6))
        HloModule real = new TestModules.Builder("flags").steps("a").backend("tpu")
                .alloc(0, 4096, 4, "preallocated-temp").alloc(1, 8192, 6, "preallocated-temp")
                .alloc(2, 1024, 6, "thread-local").alloc(3, 8, 2, "preallocated-temp")
                .value("start{2}", 0, 0, 4096, FLAG, "0-1", 4)
                .value("partition-id", 1, 0, 4096, "u32[]{:S(6)}", "0-1", 6)
                .value("compare", 2, 0, 1024, "pred[]{:S(6)}", "0-1", 6)
                .value("copy-start{2}", 3, 0, 4, "u32[]{:S(2)}", "0-1", 2).build();
        assertEquals(List.of(), errors(real, "padded-size"));
        HloModule wrong = new TestModules.Builder("flags").steps("a").backend("tpu")
                .alloc(0, 4096, 4, "preallocated-temp").alloc(1, 4096, 2, "preallocated-temp")
                .value("start{2}", 0, 0, 8, FLAG, "0-1", 4)
                .value("copy-start{2}", 1, 0, 4096, "u32[]{:S(2)}", "0-1", 2).build();
        List<Finding> f = errors(wrong, "padded-size");
        assertEquals(2, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("size 8 but the tpu tiling rule gives 4096 for " + FLAG), f.get(0).message());
        assertTrue(f.get(1).message().contains("size 4096 but the tpu tiling rule gives 4 for u32[]{:S(2)}"), f.get(1).message());
    }

    /** fusion.525 of tpu/near-capacity: outputs {2} and {3} both alias operand 1, live together at step 1. */
    private static HloModule collective(String aliasing) {
        return new TestModules.Builder("collective").steps("gte", "fusion.525", "use").backend("tpu")
                .alloc(0, 8192, 0, "preallocated-temp")
                .value("fusion.525{2}", 0, 0, 4096, "bf16[2048]{0:T(1024)}", "1-2")
                .value("fusion.525{3}", 0, 0, 4096, "bf16[2048]{0:T(1024)}", "1-1")
                .instruction("fusion.525", null, "fusion", "kind=kOutput, output_to_operand_aliasing={" + aliasing
                        + "}, calls=%async_collective_fusion.525")
                .build();
    }

    @Test
    void outputsAliasedToOneOperandShareTheirBytes() {
        CheckReport r = Checks.check(collective("{1}: (0, {}), {2}: (1, {}), {3}: (1, {})"), TilingModel.TPU, List.of());
        assertFalse(r.hasErrors(), r.findings().toString());
        assertTrue(r.of("overlap").stream().anyMatch(f -> f.message().startsWith("1 pair of outputs of one instruction")),
                r.findings().toString());
        // aliased to two operands, or not aliased at all: two buffers in the same bytes
        for (String other : List.of("{1}: (0, {}), {2}: (1, {}), {3}: (2, {})", "{1}: (0, {})")) {
            List<Finding> f = errors(collective(other), "overlap");
            assertEquals(1, f.size(), other + ": " + f);
            assertEquals("fusion.525{3}", f.get(0).subject());
        }
    }

    @Test
    void readsOutputToOperandAliasing() {
        Map<String, String> a = OperandAliasing.of("kind=kOutput, output_to_operand_aliasing={{1}: (0, {}), {2}: (1, {}), "
                + "{0, 1}: (16, {0})}, calls=%f");
        assertEquals(Map.of("{1}", "0{}", "{2}", "1{}", "{0,1}", "16{0}"), a);
        assertTrue(OperandAliasing.of("kind=kLoop, calls=%f").isEmpty());
        assertTrue(OperandAliasing.of("output_to_operand_aliasing={{1}: (0").isEmpty(), "cut off: nothing read");
    }

    /** Every compile of the corpus's real TPU dumps (the checkout's copy without it): no error, no warning. */
    @Test
    void realTpuCompilesAreClean() throws Exception {
        Path tpu = Corpus.requireSome("tpu");
        List<Path> dumps;
        try (Stream<Path> s = Files.walk(tpu)) {
            dumps = s.filter(p -> p.getFileName().toString().equals("dump") && Files.isDirectory(p)).sorted().toList();
        }
        assertFalse(dumps.isEmpty(), "no TPU dump under " + tpu);
        List<String> bad = new ArrayList<>();
        for (Path d : dumps) {
            for (HloModule m : DumpLoader.load(List.of(d))) {
                CheckReport r = Checks.check(m, TilingModel.TPU, List.of());
                for (Finding f : r.findings())
                    if (f.severity() != Severity.INFO) bad.add(tpu.relativize(d) + ": " + f);
            }
        }
        assertEquals(List.of(), bad);
    }

    /** The real failing compile with one value's size changed in its -buffer-assignment.txt: caught. */
    @Test
    void aChangedSizeInARealTpuDumpIsCaught(@TempDir Path tmp) throws Exception {
        Path dump = Corpus.require("tpu/oom/pallas-vmem/dump");
        Path copy = Files.createDirectories(tmp.resolve("dump"));
        try (Stream<Path> s = Files.list(dump)) {
            for (Path f : s.toList()) Files.copy(f, copy.resolve(f.getFileName()));
        }
        Path ba;
        try (Stream<Path> s = Files.list(copy)) {
            ba = s.filter(p -> p.getFileName().toString().endsWith("-buffer-assignment.txt.gz")).findFirst().orElseThrow();
        }
        String text = gunzip(ba);
        // the smem scalar of allocation 6: 4 bytes, as XLA sizes it; 4096 is what it would take outside SMEM
        String was = "(size=4,offset=0): u32[]{:S(2)}";
        assertTrue(text.contains(was), "the fixture holds " + was);
        gzip(ba, text.replace(was, "(size=4096,offset=0): u32[]{:S(2)}").replace("allocation 6: size 4,", "allocation 6: size 4096,"));
        HloModule m = DumpLoader.load(List.of(copy)).get(0);
        List<Finding> f = errors(m, "padded-size");
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("size 4096 but the tpu tiling rule gives 4 for u32[]{:S(2)}"), f.get(0).message());
    }

    private static String gunzip(Path p) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void gzip(Path p, String text) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
