package bufq.analysis.oom;

import bufq.table.Table;
import bufq.units.UnitsTest;
import bufq.units.PrintedSize;
import bufq.units.Units;
import org.junit.jupiter.api.Test;

import java.util.List;

import static bufq.analysis.oom.OomFamiliesTest.cell;
import static bufq.analysis.oom.OomFamiliesTest.only;
import static bufq.analysis.oom.OomFamiliesTest.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real out-of-memory pastes from public issues and XLA's own error docs, each read with its figures
 * held exactly: every printed size is the interval tsl's HumanReadableNumBytes maps to it, checked
 * against a port of that function (tsl/platform/numbers.cc) here.
 */
class OomPastesTest {
    /** tsl's HumanReadableNumBytes without the "iB" (TPU prints 15.48G): {@link UnitsTest#tsl}'s simulation. */
    static String tsl(long n) { return UnitsTest.tsl(n).replace("iB", ""); }

    /** {@code s} is exactly the byte counts that print as it: its ends print so, one byte past either does not. */
    static void holdsExactly(PrintedSize s, String printed) {
        assertNotNull(s, printed);
        assertEquals(printed, tsl(s.low()), "low end of " + printed);
        assertEquals(printed, tsl(s.high()), "high end of " + printed);
        assertTrue(!tsl(s.low() - 1).equals(printed) && !tsl(s.high() + 1).equals(printed), "interval of " + printed + " is the widest");
    }

    @Test
    void printedSizesAreTheIntervalsHumanReadableNumBytesPrintsSo() {
        // a real paste's figure: 15.48G is [16,616,783,872, 16,627,269,631]
        PrintedSize g = Units.printedOrNull("15.48G");
        assertEquals(16_616_783_872L, g.low());
        assertEquals(16_627_269_631L, g.high());
        holdsExactly(g, "15.48G");
        for (String s : List.of("6.00M", "384.0K", "1.7K", "1.00M", "530.00M", "124.00M", "122.50M", "1.50M", "9.08G",
                "3.47E", "14.49G", "34.82G", "174.10G", "95.74G", "1.12M", "1.13M", "1.38G", "1023.99M"))
            holdsExactly(Units.printedOrNull(s), s);
        // each printed size of every 997th count up to 1 TiB maps back to an interval holding the count
        for (long n = 1024; n < 1L << 40; n = n * 3 / 2 + 997) {
            PrintedSize p = Units.printedOrNull(tsl(n));
            assertTrue(p.contains(n), tsl(n) + " holds " + n);
        }
        // a person's 1.5 GiB holds what it says
        assertTrue(Units.printedOrNull("1.5 GiB").contains(3L << 29));
        // 8.00E is what 2^63 - 1 prints as: the interval stops at the largest count a long holds
        assertEquals(Long.MAX_VALUE, Units.printedOrNull("8.00E").high());
        assertEquals("8.00E", tsl(Long.MAX_VALUE));
    }

    /** A TPU report pasted without its headline (the rows of sokrypton/ColabFold#62's paste). */
    static final String HEADLESS_TPU = """
            Total hbm usage >= 9.60G:
                reserved        530.00M
                program           9.08G
                arguments            0B

            Output size 0B; shares 0B with arguments.

            Program hbm requirement 9.08G:
                global           420.0K
                HLO temp          9.08G (95.4% utilization: Unpadded (8.65G) Padded (9.06G), 0.0% fragmentation (0B))

              Largest program allocations in hbm:

              1. Size: 124.00M
                 Shape: f32[512,245,256]{2,1,0:T(8,128)}
                 Unpadded size: 122.50M
                 Extra memory due to padding: 1.50M (1.0x expansion)
                 XLA label: %fusion.1 = f32[512,245,256]{2,1,0:T(8,128)} fusion(f32[512,245,256]{2,1,0:T(8,128)} %p), kind=kLoop
                 Allocation type: HLO temp
                 ==========================
            """;

    @Test
    void aTpuReportWithoutItsHeadlineIsOneMessage() {
        OomMessage m = only(HEADLESS_TPU);
        assertEquals(Family.TPU_COMPILE, m.family());
        holdsExactly(m.figures().get("total hbm usage"), "9.60G");
        holdsExactly(m.figures().get("program requirement"), "9.08G");
        holdsExactly(m.figures().get("HLO temp unpadded"), "8.65G");
        assertEquals(1, m.buffers().size());
        holdsExactly(m.buffers().get(0).unpadded(), "122.50M");
        holdsExactly(m.buffers().get(0).padding(), "1.50M");
        assertTrue(m.warnings().isEmpty(), m.warnings().toString());
        // the listed buffer's unpadded size and padding are shown, with the expansion
        Table t = table(OomReport.run(OomReader.read(HEADLESS_TPU), List.of()), "listed buffers");
        assertEquals("122.50M (128,445,440..128,456,703 B)", Units.describe((PrintedSize) cell(t, 0, "unpadded")));
        assertEquals(1.01, cell(t, 0, "expansion"));
        // with its headline (the whole paste) the rows belong to the one message
        OomMessage whole = only("RuntimeError: RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm. Used 9.08G of 7.48G hbm. "
                + "Exceeded hbm capacity by 1.60G.\n\n" + HEADLESS_TPU);
        holdsExactly(whole.capacity(), "7.48G");
        assertEquals(1, whole.buffers().size());
    }

    /** A BFC {@code Stats:} tail pasted alone (tsl bfc_allocator.cc DumpMemoryLog, as in EnzymeAD/Reactant.jl#2632). */
    @Test
    void aBfcStatsTailWithoutItsHeadline() {
        OomMessage m = only("""
                I0000 00:00:1773083052.386500   70889 bfc_allocator.cc:1100] Stats:
                Limit:                     79172583424
                InUse:                     79170000128
                MaxInUse:                  79171234560
                NumAllocs:                        2201
                MaxAllocSize:              17179869184
                """);
        assertEquals(Family.BFC, m.family());
        assertEquals(79_172_583_424L, m.capacity().low());
        assertEquals(79_170_000_128L, m.used().low());
        assertEquals(79_171_234_560L, m.figures().get("MaxInUse").low());
        assertNull(m.requested());
        assertTrue(m.warnings().isEmpty(), m.warnings().toString());
    }

    /** E1000's fast exit (jax-ml/jax#7822; docs/errors/error_1000.md), alone and as a paste's second message (EnzymeAD/Enzyme-JAX#2422). */
    @Test
    void theE1000FastExit() {
        OomMessage m = only("Compilation failure: Aborting compilation early because it's unlikely to have enough memory. "
                + "Requires 3.47E, has 14.49G available.");
        assertEquals(Family.TPU_COMPILE, m.family());
        holdsExactly(m.used(), "3.47E");
        holdsExactly(m.capacity(), "14.49G");
        assertEquals("hbm", m.memorySpace());
        assertTrue(m.warnings().isEmpty(), m.warnings().toString());
        OomText two = OomReader.read("""
                ERROR: LoadError: RESOURCE_EXHAUSTED: E1000: CompileTimeHbmOom: XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 215.17G of 31.25G hbm. Exceeded hbm capacity by 183.92G.
                RESOURCE_EXHAUSTED: Compilation failure: Aborting compilation early because it's unlikely to have enough memory. Requires 3.84T, has 90.96G available. If more detailed logging is desired, set --xla_tpu_impure_oom_fast_exit_threshold=-1
                """);
        assertEquals(2, two.messages().size());
        holdsExactly(two.messages().get(0).used(), "215.17G");
        holdsExactly(two.messages().get(1).used(), "3.84T");
        holdsExactly(two.messages().get(1).capacity(), "90.96G");
    }

    /** vmem and smem capacities (pytorch/xla#9524; vllm-project/vllm#8318) are those memories', shown as such. */
    @Test
    void aVmemOrSmemCapacityIsThatMemorys() {
        String smem = "RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of "
                + "memory in memory space smem. Used 1.00M of 1.00M smem. Exceeded smem capacity by 1.7K.";
        OomMessage m = only(smem);
        assertEquals("smem", m.memorySpace());
        holdsExactly(m.capacity(), "1.00M");
        holdsExactly(m.exceeded(), "1.7K");
        assertNull(m.deviceCapacity(), "what fit checks against is HBM's, never smem's");
        Table t = table(OomReport.run(OomReader.read(smem), List.of()), "out-of-memory messages");
        assertTrue(t.notes().stream().anyMatch(n -> n.contains("smem holds 1.00M") && n.contains("not of HBM")), t.notes().toString());
    }

    /** docs/errors/error_1000.md's SparseCore sample: the two usages, and the capacity last. */
    @Test
    void sparseCoreCapacityIsTheLastFigure() {
        OomMessage m = only("RESOURCE_EXHAUSTED: TPU TensorCore Hbm usage: 34.82G, SparseCore Hbm usage 174.10G, exceeding available bytes: 95.74G");
        holdsExactly(m.figures().get("TensorCore Hbm usage"), "34.82G");
        holdsExactly(m.figures().get("SparseCore Hbm usage"), "174.10G");
        holdsExactly(m.capacity(), "95.74G");
        assertNull(m.exceeded());
        assertEquals(m.figures().get("TensorCore Hbm usage").low() + m.figures().get("SparseCore Hbm usage").low(), m.used().low());
    }

    /** The old reservation form (pytorch/xla#1735): exact byte counts in parentheses, the balance below zero. */
    static final String RESERVE = """
            RuntimeError: Resource exhausted: From /job:tpu_worker/replica:0/task:0:
            Attempting to reserve 3.95G at the bottom of memory. That was not possible. There are 1.92G free, 0B reserved, and 1.92G reservable.;
            HBM capacity 8.00G:
                   Top-of-Memory reserved:  529.00M (     554,696,704 bytes)
                      Currently allocated:    6.08G (   6,532,939,776 bytes)
                      Program requirement:    3.95G (   4,237,689,856 bytes)
                                           ------------
                  Available after request:   -2.55G (  -2,735,391,744 bytes)
            ; attempting reservation for program memory
            """;

    @Test
    void theOldReservationFormKeepsItsExactCounts() {
        OomMessage m = only(RESERVE);
        assertEquals(Family.TPU_PROGRAM_LOAD, m.family());
        holdsExactly(m.capacity(), "8.00G");
        assertEquals(6_532_939_776L, m.used().low());
        assertTrue(m.used().isExact());
        assertEquals(4_237_689_856L, m.requested().low());
        assertTrue(m.requested().isExact());
        assertEquals(554_696_704L, m.figures().get("Top-of-Memory reserved").low());
        assertEquals(-2_735_391_744L, m.figures().get("available after request").low());
        holdsExactly(m.free(), "1.92G");
        // the balance is the one figure printed below zero: not refused
        assertTrue(m.warnings().isEmpty(), m.warnings().toString());
        // its parts agree with one another: capacity - reserved - allocated - requirement is the balance
        long balance = m.capacity().low() - 554_696_704L - 6_532_939_776L - 4_237_689_856L;
        assertTrue(Math.abs(balance - -2_735_391_744L) <= m.capacity().high() - m.capacity().low());
    }

    /** One failure, one row: glog's line and the exception (jax-ml/jax#13428's message), BFC and XLA, a split program load. */
    @Test
    void oneFailureIsOneRow() {
        OomText glog = OomReader.read("""
                2022-11-28 10:00:00.000000: E external/org_tensorflow/tensorflow/compiler/xla/pjrt/pjrt_stream_executor_client.cc:2153] Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 6291456 bytes.
                jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 6291456 bytes.
                BufferAssignment OOM Debugging.
                BufferAssignment stats:
                             parameter allocation:    6.00MiB
                              constant allocation:         0B
                        maybe_live_out allocation:    6.00MiB
                     preallocated temp allocation:         0B
                                 total allocation:   12.00MiB
                """);
        assertEquals(1, glog.messages().size());
        OomMessage m = glog.messages().get(0);
        assertEquals(1, m.line());
        assertEquals(List.of(2), m.repeats());
        holdsExactly(m.figures().get("parameter allocation"), "6.00M");
        // the BFC allocator's line, then XLA's error for the same request: the exact size joins the BFC row
        OomText bfc = OomReader.read("""
                W external/xla/xla/tsl/framework/bfc_allocator.cc:497] Allocator (GPU_0_bfc) ran out of memory trying to allocate 6.00MiB (rounded to 6291456)requested by op
                jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 6291456 bytes.
                """);
        assertEquals(1, bfc.messages().size());
        assertEquals(Family.BFC, bfc.messages().get(0).family());
        assertEquals(6_291_456L, bfc.messages().get(0).requested().low());
        assertTrue(bfc.messages().get(0).requested().isExact());
        // a program load split at its line break (AI-Hypercomputer/tpu-recipes#151's message): one row, no "cut off"
        OomText split = OomReader.read("""
                RESOURCE_EXHAUSTED: Error loading program 'jit__multi_slice':
                Attempting to reserve 6.14G at the bottom of memory. That was not possible.
                There are 147.64M free, 0B reserved, and 147.64M reservable.
                """);
        assertEquals(1, split.messages().size());
        OomMessage p = split.messages().get(0);
        assertEquals("jit__multi_slice", p.program());
        holdsExactly(p.requested(), "6.14G");
        holdsExactly(p.free(), "147.64M");
        assertTrue(split.allWarnings().isEmpty(), split.allWarnings().toString());
    }

    /** BFC lines that say they are not failures (tensorflow's bfc_allocator.cc, many pastes) are warnings of the log. */
    @Test
    void notAFailureIsAWarning() {
        OomText t = OomReader.read("""
                2020-05-18 08:20:15.727714: W tensorflow/core/common_runtime/bfc_allocator.cc:239] Allocator (GPU_0_bfc) ran out of memory trying to allocate 3.46GiB with freed_by_count=0. The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available.
                2020-05-18 08:20:15.744891: W tensorflow/core/common_runtime/bfc_allocator.cc:239] Allocator (GPU_0_bfc) ran out of memory trying to allocate 3.04GiB with freed_by_count=0.
                The caller indicates that this is not a failure, but may mean that there could be performance gains if more memory were available.
                """);
        assertTrue(t.messages().isEmpty());
        assertEquals(2, t.events().size());
        assertEquals("allocator-warning", t.events().get(0).kind());
        holdsExactly(t.events().get(0).figures().get("requested"), "3.46M".replace("M", "G"));
    }

    /** A TPU runtime message's device (pytorch/xla#8020 prints (1x0x0_HBM0); huggingface/diffusers#8358 (0x0x0_HBM0)). */
    @Test
    void theDeviceSuffixIsKept() {
        OomMessage m = only("RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to "
                + "allocate 196.00M. That was not possible. There are 134.44M free.; (1x0x0_HBM0): while running replica 0 and "
                + "partition 0 of a replicated computation (other replicas may have failed as well).");
        assertEquals("1x0x0_HBM0", m.device());
        holdsExactly(m.requested(), "196.00M");
        holdsExactly(m.free(), "134.44M");
        assertEquals("0x0x0_HBM0", only("XlaRuntimeError: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to "
                + "allocate 4.39G. That was not possible. There are 2.30G free.; (0x0x0_HBM0)").device());
    }

    /** 2026 wordings (real pastes): HBM temporaries against what HBM has; BFC chunk sizes printed human-readable. */
    @Test
    void wordingsOf2026() {
        OomMessage m = only("RESOURCE_EXHAUSTED: Ran out of memory on HBM, the total memory required for HLO temporaries (32.55G) "
                + "exceeds available HBM (31.25G)");
        assertEquals(Family.TPU_COMPILE, m.family());
        holdsExactly(m.figures().get("HLO temporaries"), "32.55G");
        holdsExactly(m.used(), "32.55G");
        holdsExactly(m.capacity(), "31.25G");
        OomMessage bfc = only("""
                Allocator (GPU_0_bfc) ran out of memory trying to allocate 8.0KiB (rounded to 8192)requested by op
                InUse at 7f0000000000 of size 1.50MiB next 1 xla.execute{executable=jit_mlp, device=0} xla.buffer{kind=parameter, allocation_index=0}
                """);
        holdsExactly(bfc.buffers().get(0).size(), "1.50M");
    }
}
