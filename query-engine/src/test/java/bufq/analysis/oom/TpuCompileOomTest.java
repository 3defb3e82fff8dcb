package bufq.analysis.oom;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static bufq.analysis.oom.OomFamiliesTest.cell;
import static bufq.analysis.oom.OomFamiliesTest.only;
import static bufq.analysis.oom.OomFamiliesTest.table;
import static bufq.analysis.oom.OomPastesTest.holdsExactly;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * XLA:TPU's compile-time out-of-memory errors as real compiles print them (the corpus's
 * {@code tpu/oom} cases, each beside its failing compile's own dump) and as public pastes show them,
 * read and joined to the module that failed.
 */
class TpuCompileOomTest {

    /** A MaxText test of its engine benchmark (AI-Hypercomputer/maxtext, {@code parse_oom}'s verbatim message): the module named at the end. */
    @Test
    void theEarlyCheckNamingItsModule() {
        OomMessage m = only("RESOURCE_EXHAUSTED: Ran out of memory on HBM, the total memory required for HLO temporaries (98.58G) "
                + "exceeds available HBM (94.74G). HLO module: jit_fwd_bwd.");
        assertEquals(Family.TPU_COMPILE, m.family());
        assertEquals("jit_fwd_bwd", m.program());
        holdsExactly(m.used(), "98.58G");
        holdsExactly(m.figures().get("HLO temporaries"), "98.58G");
        holdsExactly(m.capacity(), "94.74G");
        assertEquals("hbm", m.memorySpace());
    }

    /**
     * Split after its first clause, as a public GKE recipe for DeepSeek V3 on Ironwood (tpu7x) quotes
     * it, and wrapped before its figure, as a public write-up of a sequence-length sweep on v6e does.
     */
    @Test
    void theEarlyCheckSplitOrWrapped() {
        OomMessage split = only("RESOURCE_EXHAUSTED: Ran out of memory on HBM\n"
                + "total memory required for HLO temporaries (105.73G) exceeds available HBM (94.74G)\n");
        holdsExactly(split.used(), "105.73G");
        holdsExactly(split.capacity(), "94.74G");
        OomMessage wrapped = only("Ran out of memory on HBM, the total memory required for HLO temporaries\n"
                + "(38.28G) exceeds available HBM (31.24G).\n");
        holdsExactly(wrapped.used(), "38.28G");
        holdsExactly(wrapped.capacity(), "31.24G");
    }

    /** XLA's docs/errors/error_1000.md (openxla/xla): a VMEM failure naming the kernel instruction, no figures. */
    @Test
    void vmemOnTheStackNamesItsInstruction() {
        OomText t = OomReader.read("JaxRuntimeError: RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem while allocating on "
                + "stack for %ragged_latency_optimized_all_gather_lhs_contracting_gated_matmul_kernel.18 = "
                + "bf16[2048,4096]{1,0:T(8,128)(2,1)} custom-call(%get-tuple-element.18273, %get-tuple-element.18274), "
                + "custom_call_target=\"\"\n");
        assertEquals(1, t.messages().size(), t.allWarnings().toString());
        OomMessage m = t.messages().get(0);
        assertEquals("vmem", m.memorySpace());
        assertTrue(m.warnings().isEmpty(), m.warnings().toString());
        assertEquals(1, m.buffers().size());
        assertEquals("ragged_latency_optimized_all_gather_lhs_contracting_gated_matmul_kernel.18", m.buffers().get(0).instruction());
        assertEquals("custom-call", m.buffers().get(0).opcode());
    }

    /**
     * The older long HBM report (DifferentiableUniverseInitiative/flowpm#27): arguments of unknown
     * size, no output size; the temp under 'Program hbm requirement'.
     */
    @Test
    void theLongHbmReportWithUnknownSizes() {
        OomMessage m = only("""
                Compilation failure: Ran out of memory in memory space hbm. Used 41.74G of 16.00G hbm. Exceeded hbm capacity by 25.74G.

                Total hbm usage >= 41.74G:
                    reserved        528.00M
                    program          41.22G
                    arguments       unknown size

                Output size unknown.

                Program hbm requirement 41.22G:
                    reserved           4.0K
                    global           29.82M
                    HLO temp         41.19G (24.2% utilization, 0.7% fragmentation (293.84M))
                """);
        holdsExactly(m.used(), "41.74G");
        holdsExactly(m.capacity(), "16.00G");
        holdsExactly(m.exceeded(), "25.74G");
        holdsExactly(m.figures().get("HLO temp"), "41.19G");
        holdsExactly(m.figures().get("program"), "41.22G");
        assertFalse(m.figures().containsKey("arguments"), "arguments of unknown size are no figure");
    }

    /**
     * XLA:TPU's status payload repeats the report's first line ({@code CompilationResultProto='...Ran
     * out of memory in memory space vmem. Used 289.82M ...[truncated]'}): one failure, printed twice.
     */
    @Test
    void thePayloadIsACopyOfTheReport() throws Exception {
        Path dir = Corpus.require("tpu/oom/pallas-vmem");
        for (String file : List.of("run.log", "exception.txt")) {
            OomText t = OomReader.read(Files.readAllBytes(dir.resolve(file)));
            assertEquals(1, t.messages().size(), file + ": " + t.messages());
            OomMessage m = t.messages().get(0);
            assertEquals(2, m.times(), file);
            assertEquals(5, m.buffers().size(), file);
            holdsExactly(m.used(), "289.82M");
            holdsExactly(m.capacity(), "128.00M");
            holdsExactly(m.exceeded(), "161.82M");
            assertEquals(null, m.deviceCapacity(), "a vmem capacity is not the device's");
            List<HloModule> modules = DumpLoader.load(List.of(dir.resolve("dump")));
            OomReport.Join j = OomReport.joins(t, modules).get(0);
            assertNotNull(j.module(), file);
            Table which = table(OomReport.run(t, modules), "which module and allocation");
            assertEquals("jit_ffn_forward", cell(which, 0, "module"));
            assertEquals("4 of 5 listed buffers", cell(which, 0, "evidence"));
            // the four listed by 'XLA label: shard_map.25 = custom-call(...)' are that instruction's value
            Table listed = table(OomReport.run(t, modules), "listed buffers");
            for (int r = 0; r < 4; r++) assertEquals("instruction name", cell(listed, r, "match"), "row " + r);
        }
    }

    /**
     * Every HBM case of the corpus: the message's figure is the failing dump's color-0 total (its
     * memory-usage report's Total bytes), which joins it; the allocation is the preallocated temp.
     */
    @Test
    void everyHbmCaseJoinsItsDumpByItsHbmTotal() throws Exception {
        Path oom = Corpus.requireSome("tpu/oom");
        int cases = 0;
        try (Stream<Path> s = Files.list(oom)) {
            for (Path c : s.sorted().toList()) {
                if (!Files.exists(c.resolve("exception.txt"))) continue;
                List<HloModule> modules = DumpLoader.load(List.of(c.resolve("dump")));
                for (String file : List.of("run.log", "exception.txt")) {
                    OomText t = OomReader.read(Files.readAllBytes(c.resolve(file)));
                    assertEquals(1, t.messages().size(), c + "/" + file);
                    OomMessage m = t.messages().get(0);
                    OomReport.Join j = OomReport.joins(t, modules).get(0);
                    assertNotNull(j.module(), c + "/" + file + " joins no module");
                    if (!"hbm".equals(m.memorySpace())) continue;
                    long total = ModuleMatch.checkedBytes(j.module(), 0);
                    assertTrue(m.used().contains(total), c + ": " + m.used() + " vs " + total);
                    assertTrue(j.allocation().preallocatedTemp() && j.allocation().color() == 0, c + ": " + j.allocation());
                    Table figures = table(OomReport.run(t, modules), "figures re-derived from the dump");
                    assertEquals(0L, cell(figures, 0, "difference"), c.toString());
                }
                cases++;
            }
        }
        assertTrue(cases >= 1, "no failing case under " + oom);
    }

    /**
     * The check's figure leaves out thread-local allocations: on a DP-SGD compile they straddle a
     * rounding step, so the whole colour-0 total prints as 22.06G where the message says 22.05G.
     */
    @Test
    void theCheckCountsNoThreadLocalAllocation() throws Exception {
        Path c = Path.of(System.getProperty("bufq.root", ".")).resolve("query-engine/src/test/resources/fixtures/tpu-refused");
        List<HloModule> modules = DumpLoader.load(List.of(c.resolve("dump")));
        OomText t = OomReader.read(Files.readAllBytes(c.resolve("exception.txt")));
        OomReport.Join j = OomReport.joins(t, modules).get(0);
        assertNotNull(j.module(), "joins its dump");
        long all = 0;
        for (bufq.model.BufferAllocation a : j.module().allocations()) if (a.color() == 0) all += a.size();
        assertEquals(23_683_516_416L, all, "the memory-usage report's Total bytes");
        assertFalse(t.messages().get(0).used().contains(all), "22.0571 GiB does not print as 22.05G");
        assertEquals(23_681_253_888L, ModuleMatch.checkedBytes(j.module(), 0));
        assertEquals(23_681_253_888L, OomReport.spaceTotal(j));
        assertTrue(j.allocation().preallocatedTemp(), j.allocation().toString());
        Table figures = table(OomReport.run(t, modules), "figures re-derived from the dump");
        assertEquals(0L, cell(figures, 0, "difference"));
    }
}
