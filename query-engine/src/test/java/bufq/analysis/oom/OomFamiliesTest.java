package bufq.analysis.oom;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.table.Output;
import bufq.table.Table;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A message of every family, written in its printer's format from the modules in test resources,
 * joins to the values it was made from. Each test names the XLA source or doc its text follows.
 */
class OomFamiliesTest {
    static final Path FIXTURES = Path.of("src/test/resources/fixtures");

    static List<HloModule> load(String relative) throws Exception {
        return DumpLoader.load(List.of(FIXTURES.resolve(relative)));
    }

    static Table table(List<Output> out, String title) {
        for (Output o : out) if (o instanceof Table t && t.title().equals(title)) return t;
        throw new AssertionError("no table " + title);
    }

    static Object cell(Table t, int row, String column) { return t.cell(row, t.columnIndex(column)); }

    static OomMessage only(String text) {
        OomText t = OomReader.read(text);
        assertEquals(1, t.messages().size(), "one message in " + text);
        return t.messages().get(0);
    }

    /** GPU: BufferAssignment::ToVerboseString's stats and TopKPeakBuffers (xla/service/buffer_assignment.cc), as jax#12575 shows it. */
    static final String GPU = """
            2024-01-10 12:00:00.000000: E external/xla/xla/pjrt/pjrt_stream_executor_client.cc:2732] Execution failed
            jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 128 bytes.
            BufferAssignment OOM Debugging.
            BufferAssignment stats:
                         parameter allocation:        64B
                          constant allocation:         0B
                    maybe_live_out allocation:        16B
                 preallocated temp allocation:       128B
                             total allocation:       208B
            Peak buffers:
            \tBuffer 1:
            \t\tSize: 64B
            \t\tEntry Parameter Subshape: f32[16]
            \t\t==========================

            \tBuffer 2:
            \t\tSize: 16B
            \t\tOperator: op_name="jit(split)/split" source_file="/tmp/split.py" source_line=7
            \t\tXLA Label: fusion
            \t\tShape: (f32[2], f32[2])
            \t\t==========================

            Traceback (most recent call last):
              File "split.py", line 9, in <module>
            """;

    @Test
    void gpuBufferAssignmentJoinsAllocationBuffersAndStats() throws Exception {
        OomMessage m = only(GPU);
        assertEquals(Family.GPU_ASSIGNMENT, m.family());
        assertEquals(128, m.requested().low());
        assertEquals(2, m.buffers().size());
        assertEquals("fusion", m.buffers().get(1).opcode());
        assertEquals("/tmp/split.py:7", m.buffers().get(1).source());
        assertTrue(m.buffers().get(0).parameter());
        List<Output> out = OomReport.run(OomReader.read(GPU), load("old2024"));
        Table mods = table(out, "which module and allocation");
        assertEquals(2L, cell(mods, 0, "allocation"));
        Table bufs = table(out, "listed buffers");
        assertEquals("size+shape", cell(bufs, 0, "match"));
        assertEquals("0 p.1", cell(bufs, 0, "values"));
        assertEquals("size+shape+opcode", cell(bufs, 1, "match"));
        assertEquals("4 fusion.2{}", cell(bufs, 1, "values"));
        assertEquals("why 4", cell(bufs, 1, "next"));
        assertEquals("jit_split", cell(bufs, 1, "module"));
        Table figs = table(out, "figures re-derived from the dump");
        for (int r = 0; r < figs.size(); r++) assertEquals("equal", cell(figs, r, "why"), "row " + r);
        assertEquals(6, figs.size(), "requested and five stats rows");
    }

    /** TPU compile time: docs/errors/error_1000.md (E1000), with the newer label and stack_frame_id. */
    static final String TPU_COMPILE = """
            E1000: CompileTimeHbmOom: XLA:TPU compile permanent error. Ran out of memory in memory space hbm. Used 18.53K of 16.00K hbm. Exceeded hbm capacity by 2.53K.

            Total hbm usage >= 18.53K:
                reserved        512B
                program          32B
                arguments       9.00K

            Output size 512B; shares 0B with arguments.

            Program hbm requirement 32B:
                HLO temp          32B (100.0% utilization: Unpadded (32B) Padded (32B), 0.0% fragmentation (0B))

              Largest program allocations in hbm:

              1. Size: 8.00K
                 Operator: op_name="args[0]" stack_frame_id=3
                 Shape: f32[16,32]{1,0:T(8,128)}
                 Unpadded size: 2.00K
                 Extra memory due to padding: 6.00K (4.0x expansion)
                 XLA label: Arg_0.1 = parameter(0)
                 Allocation type: global
                 ==========================

              2. Size: 512B
                 Shape: f32[1,5]{1,0:T(1,128)}
                 Unpadded size: 20B
                 XLA label: %dynamic-slice.4 = f32[1,5]{1,0:T(1,128)} dynamic-slice(f32[16,32]{1,0:T(8,128)} %Arg_0.1, s32[] %Arg_1.2, s32[] %Arg_2.3), dynamic_slice_sizes={1,5}
                 Allocation type: HLO temp
                 ==========================
            """;

    @Test
    void tpuCompileTimeJoinsByLabelsAndTemp() throws Exception {
        OomMessage m = only(TPU_COMPILE);
        assertEquals(Family.TPU_COMPILE, m.family());
        assertEquals("hbm", m.memorySpace());
        assertTrue(m.capacity().contains(16 * 1024));
        assertTrue(m.exceeded().contains(2591));
        assertEquals(2, m.buffers().size());
        ListedBuffer first = m.buffers().get(0);
        assertEquals("Arg_0.1", first.instruction());
        assertEquals("stack_frame_id=3", first.source());
        assertEquals("global", first.allocationType());
        assertTrue(first.padding().contains(6144));
        assertEquals("dynamic-slice.4", m.buffers().get(1).instruction());
        assertEquals("dynamic-slice", m.buffers().get(1).opcode());
        List<Output> out = OomReport.run(OomReader.read(TPU_COMPILE), load("tpu"));
        Table mods = table(out, "which module and allocation");
        assertEquals(5L, cell(mods, 0, "allocation"), "the hbm temp, 32 B");
        Table bufs = table(out, "listed buffers");
        assertEquals("instruction name", cell(bufs, 0, "match"));
        assertEquals("0 Arg_0.1", cell(bufs, 0, "values"));
        assertEquals("8 dynamic-slice.4", cell(bufs, 1, "values"));
        Table figs = table(out, "figures re-derived from the dump");
        assertEquals("equal", cell(figs, 0, "why"), "HLO temp");
        assertEquals("equal within the printed rounding", cell(figs, 1, "why"), "arguments");
        assertEquals("equal", cell(figs, 2, "why"), "output");
    }

    /** The vmem variant of error_1000.md's headline: the join looks at colour 1. */
    @Test
    void tpuVmemVariantReadsTheSpace() throws Exception {
        String text = "XLA:TPU compile permanent error. Ran out of memory in memory space vmem. Used 8.00K of 4.00K vmem. "
                + "Exceeded vmem capacity by 4.00K.\nProgram vmem requirement 8.00K:\n    HLO temp 8.00K (100.0% utilization: "
                + "Unpadded (8.00K) Padded (8.00K), 0.0% fragmentation (0B))\n";
        OomMessage m = only(text);
        assertEquals("vmem", m.memorySpace());
        List<Output> out = OomReport.run(OomReader.read(text), load("tpu"));
        assertEquals(4L, cell(table(out, "which module and allocation"), 0, "allocation"), "the colour-1 temp");
    }

    /** TPU one allocation: docs/errors/error_1001.md / oom_debugging.md's #allocationK form. */
    @Test
    void tpuAllocationJoinsByIndex() throws Exception {
        String text = "RESOURCE_EXHAUSTED: Allocation (size=512) would exceed memory (size=256) :: #allocation2 "
                + "[shape = 'f32[1,5]{1,0:T(1,128)}', space=hbm, size = 0x200, tag = 'output of dynamic-slice.4@{}'] :: dynamic-slice.4";
        OomMessage m = only(text);
        assertEquals(2, m.allocationIndex());
        assertEquals(256, m.capacity().low());
        assertEquals("dynamic-slice.4", m.buffers().get(0).instruction());
        List<Output> out = OomReport.run(OomReader.read(text), load("tpu"));
        Table mods = table(out, "which module and allocation");
        assertEquals(2L, cell(mods, 0, "allocation"));
        assertTrue(((String) cell(mods, 0, "evidence")).contains("allocation 2 has the requested size"));
        assertEquals("allocation index", cell(table(out, "listed buffers"), 0, "match"));
    }

    /** TPU run time E0100 (docs/errors/error_0100.md): an array, not an allocation; an argument of that size is named. */
    @Test
    void tpuRuntimeBufferIsAnArray() throws Exception {
        String text = "XlaRuntimeError: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 8.00K. "
                + "That was not possible. There are 6.43K free.; (0x0x1_HBM0)";
        OomMessage m = only(text);
        assertEquals(Family.TPU_BUFFER, m.family());
        assertTrue(m.requested().contains(8192) && !m.requested().isExact());
        assertTrue(m.free().contains(6584));
        Table mods = table(OomReport.run(OomReader.read(text), load("tpu")), "which module and allocation");
        assertNull(cell(mods, 0, "module"));
        String why = (String) cell(mods, 0, "evidence");
        assertTrue(why.startsWith("an array") && why.contains("parameter 0 of jit_dynamic_slice"), why);
    }

    /** TPU run time E0101 (docs/errors/error_0101.md): the program is named. */
    @Test
    void tpuProgramLoadNamesTheProgram() throws Exception {
        String text = "Error loading program 'jit_dynamic_slice': Attempting to reserve 2.00M at the bottom of memory. "
                + "That was not possible. There are 1.50M free, 0B reserved, and 1.50M reservable.";
        OomMessage m = only(text);
        assertEquals("jit_dynamic_slice", m.program());
        assertEquals(0, m.figures().get("reserved").low());
        assertTrue(m.figures().get("reservable").contains(1572864));
        Table mods = table(OomReport.run(OomReader.read(text), load("tpu")), "which module and allocation");
        assertEquals("program name jit_dynamic_slice", cell(mods, 0, "evidence"));
    }

    /** SparseCore (FORMAT.md): the usages, and what the device has (error_1000.md: its capacity, not an excess). */
    @Test
    void sparseCoreFigures() {
        OomMessage m = only("TPU TensorCore Hbm usage: 15.10G, SparseCore Hbm usage 1.20G, exceeding available bytes: 840.00M");
        assertEquals(Family.SPARSECORE, m.family());
        assertTrue(m.capacity().contains(840L << 20));
        assertNull(m.exceeded());
        assertTrue(m.used().contains((long) (16.30 * (1L << 30))));
    }

    /** BFC with the 2026 annotations (tsl bfc_allocator.cc; openxla/xla PR 44246): exact join by allocation index. */
    static final String BFC = """
            2026-03-02 10:00:00.000000: W external/xla/xla/tsl/framework/bfc_allocator.cc:501] Allocator (GPU_0_bfc) ran out of memory trying to allocate 8.0KiB (rounded to 8192)requested by op
            2026-03-02 10:00:00.000100: I external/xla/xla/tsl/framework/bfc_allocator.cc:1041] BFCAllocator dump for GPU_0_bfc
            2026-03-02 10:00:00.000200: I external/xla/xla/tsl/framework/bfc_allocator.cc:1048] Bin (256): \tTotal Chunks: 1, Chunks in use: 1. 256B allocated for chunks.
            2026-03-02 10:00:00.000300: I external/xla/xla/tsl/framework/bfc_allocator.cc:1100] InUse at 7f0000000000 of size 32768 next 1 xla.execute{executable=jit_mlp, device=0} xla.buffer{kind=parameter, allocation_index=0}
            2026-03-02 10:00:00.000400: I external/xla/xla/tsl/framework/bfc_allocator.cc:1100] InUse at 7f0000008000 of size 256 next 2 xla.execute{executable=jit_mlp, device=0} xla.buffer{kind=live_out, allocation_index=2}
            2026-03-02 10:00:00.000500: I external/xla/xla/tsl/framework/bfc_allocator.cc:1100] Free  at 7f0000008100 of size 4096 next 3
            2026-03-02 10:00:00.000600: I external/xla/xla/tsl/framework/bfc_allocator.cc:1107] Sum Total of in-use chunks: 32.2KiB
            2026-03-02 10:00:00.000700: I external/xla/xla/tsl/framework/bfc_allocator.cc:1109] Stats:
            Limit:                        40000
            InUse:                        33024
            MaxInUse:                     33024
            """;

    @Test
    void bfcWithAnnotationsJoinsByIndex() throws Exception {
        OomMessage m = only(BFC);
        assertEquals(Family.BFC, m.family());
        assertEquals("GPU_0_bfc", m.device());
        assertEquals(40000, m.capacity().low());
        assertEquals(33024, m.used().low());
        assertEquals("jit_mlp", m.program());
        assertEquals(33024L, m.programTotals().get("jit_mlp"));
        assertTrue(m.requested().contains(8192) && m.requested().high() == 8192);
        List<Output> out = OomReport.run(OomReader.read(BFC), load("jax010-mlp"));
        Table mods = table(out, "which module and allocation");
        assertEquals(6L, cell(mods, 0, "allocation"));
        Table bufs = table(out, "listed buffers");
        assertEquals("allocation index", cell(bufs, 0, "match"));
        assertEquals("allocation index", cell(bufs, 1, "match"));
        assertEquals("jit_mlp", cell(bufs, 1, "module"));
        Table figs = table(out, "figures re-derived from the dump");
        assertEquals("in-use chunks of jit_mlp (its allocations but thread-local)", cell(figs, 1, "figure"));
    }

    /** BFC without annotations, and the stream executor's line (se::DeviceMemoryAllocator): join by size. */
    @Test
    void streamExecutorJoinsBySize() throws Exception {
        String text = "Failed to allocate request for 32.0KiB (32768B) on device ordinal 0";
        OomMessage m = only(text);
        assertEquals(Family.STREAM_EXECUTOR, m.family());
        assertTrue(m.requested().isExact());
        assertEquals("device ordinal 0", m.device());
        Table mods = table(OomReport.run(OomReader.read(text), load("jax010-mlp")), "which module and allocation");
        assertEquals(0L, cell(mods, 0, "allocation"));
        assertEquals("parameter", cell(mods, 0, "kind"));
    }
}
