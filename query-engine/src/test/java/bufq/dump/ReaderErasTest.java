package bufq.dump;

import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.model.BufferAllocation;
import bufq.model.HloInstruction;
import bufq.model.HloPosition;
import bufq.model.HloUse;
import bufq.model.HloValue;
import bufq.model.LiveRange;
import bufq.model.HloModule;
import bufq.model.PeakClaim;
import bufq.model.StackTraceNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One small dump per era and backend, checked field by field. */
class ReaderErasTest {
    static HloModule only(String fixture) throws LoadException {
        List<HloModule> ms = DumpLoader.load(List.of(Fixtures.path(fixture)));
        assertEquals(1, ms.size(), "modules in " + fixture);
        HloModule m = ms.get(0);
        assertEquals(0, m.warningCount(), () -> "warnings: " + m.warnings());
        return m;
    }

    @Test
    void jaxlib010FourFileSetJoinsItsFiles() throws Exception {
        HloModule m = only("jax010-mlp");
        assertEquals(4, m.info().files().size());
        assertEquals("jit_mlp", m.handle());
        assertEquals(12, m.info().number());
        assertEquals("cpu", m.info().backend());
        assertEquals(57600L, m.info().peakClaim().claimedBytes());
        assertTrue(m.info().peakClaim().cumulative());
        assertEquals(3, m.info().peakClaim().time());
        assertEquals(57600L, Liveness.of(m).liveBytes(3));
        assertEquals(m.info().claimedTotalBytes().longValue(), m.totalBytes());
        assertTrue(m.info().hasValueDetails());
        // The stack-trace header groups digits by spaces: 57 600 bytes.
        assertEquals(57600L, m.info().stackTraceBytes());
        StackTraceNode root = m.info().stackTrace();
        assertEquals("main.2", root.label());
        assertEquals(4, root.children().size());
        assertEquals("jit(mlp)/dot_general", root.children().get(2).label());
        assertEquals(8192L, root.children().get(2).total());
        assertEquals(14.2, root.children().get(2).percent(), 1e-9);
        // Instructions are timed from the sequence.
        assertEquals(List.of("w.1", "x.1", "ynn_fusion", "tanh_reduce_fusion"), m.sequence());
        assertEquals(2, m.timeOf("ynn_fusion"));
    }

    @Test
    void anyOneSiblingFindsTheOthers() throws Exception {
        Path dir = Fixtures.path("jax010-mlp");
        for (String kind : List.of("-live-range.txt", "-memory-usage-report.txt", "-buffer-assignment-values.txt")) {
            Path one = dir.resolve("module_0012.jit_mlp.cpu_after_optimizations" + kind);
            List<ModuleSource> s = DumpLoader.discover(List.of(one));
            assertEquals(1, s.size());
            assertEquals(4, s.get(0).files().size(), kind);
            assertEquals("jit_mlp", s.get(0).name());
            assertEquals(12, s.get(0).number());
        }
    }

    @Test
    void late2025SingleFileWithStackTree() throws Exception {
        HloModule m = only("late2025");
        assertEquals(2, m.info().files().size());
        BufferAllocation a0 = m.allocation(0);
        assertTrue(a0.isOutput());
        assertTrue(a0.maybeLiveOut());
        assertEquals("(u32[2], u32[2])", a0.outputShape().text());
        BufferAllocation a1 = m.allocation(1);
        assertEquals(0, a1.parameter());
        assertEquals("{}", a1.shapeIndex());
        assertEquals("u32[2,2]", a1.parameterShape().text());
        HloValue tuple = m.value(7);
        assertEquals("tuple.6", tuple.name());
        assertTrue(tuple.indexPrinted());
        assertEquals("tuple.6{}", tuple.label());
        assertEquals(16, tuple.logicalSize());
        HloValue s = m.valueByKey("slice_bitcast_fusion.1{}");
        assertEquals(List.of(new HloPosition("slice_bitcast_fusion.1", "{}"), new HloPosition("tuple.6", "{0}")), s.positions());
        assertEquals(List.of(new HloUse("tuple.6", 0, "{}")), s.uses());
        assertEquals(new LiveRange(1, 4), s.range());
        HloInstruction ins = m.instruction("slice_bitcast_fusion.1");
        assertEquals("fusion", ins.opcode());
        assertEquals(List.of("x.1"), ins.operands());
        assertEquals("jit(_unstack)/split", ins.opName());
        assertEquals(16, ins.sourceLine());
        assertTrue(ins.sourceFile().endsWith("test_my_great_tp_plan.py"));
        assertTrue(ins.attributes().startsWith("kind=kLoop, calls=%fused_computation.1"));
        assertEquals(1, ins.time());
        assertEquals(List.of("tuple.6"), m.users("slice_bitcast_fusion.1"));
        assertEquals(48L, m.info().peakClaim().claimedBytes());
        assertEquals(48L, Liveness.of(m).liveBytes(3));
        assertEquals(3, m.info().stackTrace().children().size());
    }

    @Test
    void oldStylePeakListsRepeatedNames() throws Exception {
        HloModule m = only("old2024");
        assertEquals("gpu", m.info().backend());
        PeakClaim p = m.info().peakClaim();
        assertFalse(p.cumulative());
        assertEquals(5, p.entries().size());
        assertEquals("fusion.2", p.entries().get(1).key());
        assertEquals(5, LiveValues.at(m, 2).size());
        assertEquals(208L, m.totalBytes());
        assertEquals(208L, m.info().claimedTotalBytes());
        HloValue whole = m.valueByKey("fusion.2{}");
        assertEquals(new LiveRange(1, 2), whole.range());
        assertEquals(List.of(new HloUse("get-tuple-element.5", 0, "{}"), new HloUse("get-tuple-element.6", 0, "{}")), whole.uses());
        // One instruction per name even though three values print it.
        assertEquals(1, m.instructions().stream().filter(i -> i.name().equals("fusion.2")).count());
        assertEquals("/tmp/split.py", m.instruction("fusion.2").sourceFile());
    }

    @Test
    void tfEraPointersAndOldHlo() throws Exception {
        HloModule m = only("tf-era");
        assertEquals("0x55d0c8a1e2f0", m.allocation(0).pointer());
        assertEquals(204L, m.info().claimedTotalBytes());
        assertEquals(204L, m.totalBytes());
        assertEquals("cluster_0__XlaCompiledKernel_true__XlaNumConstantArgs_0__XlaNumResourceArgs_0_", m.handle());
        HloInstruction add = m.instruction("add.4");
        assertEquals("add", add.opcode());
        assertEquals(List.of("arg0.1", "broadcast.3"), add.operands());
        assertEquals("add", add.opName());
        assertEquals(-1, add.time());
        assertNull(m.info().peakClaim());
        assertEquals(-1, m.info().maxTime());
        assertTrue(m.allocation(3).preallocatedTemp());
        assertEquals(List.of(2L, 4L), m.allocation(3).valueIds());
    }

    @Test
    void analysisOffSetHasAllocationsAndReportOnly() throws Exception {
        HloModule m = only("analysis-off");
        assertFalse(m.info().hasValueDetails());
        assertNull(m.info().peakClaim());
        assertEquals(m.info().claimedTotalBytes().longValue(), m.totalBytes());
        assertFalse(m.info().colorTotals().isEmpty());
        assertEquals(m.totalBytes(), m.info().colorTotals().get(0).longValue());
        assertTrue(m.values().stream().allMatch(v -> v.range() == null));
    }

    @Test
    void tpuDumpIsDetectedByTilesAndSizesArePadded() throws Exception {
        HloModule m = only("tpu");
        assertEquals("tpu", m.info().backend());
        assertEquals("jit_dynamic_slice", m.handle());
        assertEquals(59, m.info().number());
        HloValue arg = m.valueByKey("Arg_0.1{}");
        assertEquals(8192, arg.size());
        assertEquals(8192, arg.paddedSize());
        assertEquals(2048, arg.logicalSize());
        HloValue scalar = m.valueByKey("Arg_2.3{}");
        assertEquals(512, scalar.paddedSize());
        HloValue vmem = m.valueByKey("copy-start{0}");
        assertEquals(1, vmem.color());
        assertEquals(1, vmem.shape().memorySpace());
        assertEquals(6, m.allocation(7).color());
        assertEquals(4132L, Liveness.of(m).liveBytesAllSpaces(7));   // the claim sums every memory space
        assertEquals(18980L, m.totalBytes());
    }

    @Test
    void reportAloneGivesRoundedAllocations() throws Exception {
        HloModule m = only("report-only");
        assertEquals(18980L, m.info().claimedTotalBytes());
        assertEquals(8, m.allocations().size());
        BufferAllocation a1 = m.allocation(1);
        assertEquals(8192, a1.size());
        assertFalse(a1.sizeExact());      // "8.0KiB" is rounded
        assertTrue(m.allocation(5).sizeExact()); // "32B" is exact
        assertEquals(1, m.allocation(4).color());
        assertTrue(m.values().isEmpty());
    }

    @Test
    void stdoutFramesSplitIntoModules() throws Exception {
        List<ModuleSource> s = DumpLoader.discover(List.of(Fixtures.path("framed-stdout.log")));
        assertEquals(2, s.size());
        assertEquals("jit_neg", s.get(0).name());
        assertEquals(2, s.get(0).files().size());
        HloModule neg = s.get(0).load();
        assertEquals(0, neg.warningCount(), () -> neg.warnings().toString());
        assertEquals(64L, Liveness.of(neg).liveBytes(1));
        assertEquals(64L, neg.info().peakClaim().claimedBytes());
        HloModule id = s.get(1).load();
        assertEquals(0, id.warningCount());
        assertTrue(id.allocation(0).isParameter());
        assertTrue(id.allocation(0).maybeLiveOut());
        assertEquals("parameter-live-out", id.allocation(0).kind());
    }

    @Test
    void warningsInAFrameNameTheLogAndItsLine() throws Exception {
        Path log = Fixtures.path("framed-stdout.log");
        String text = Files.readString(log).replace("    neg.2{}:1-2\n", "    neg.2{}:1-x\n");
        HloModule m = DumpLoader.loadText("run.log", text);
        assertEquals("jit_neg", m.handle());
        assertEquals(1, m.warningCount(), () -> m.warnings().toString());
        assertEquals("run.log", m.warnings().get(0).file());
        assertEquals(31, m.warnings().get(0).line());
        assertTrue(m.info().files().get(0).startsWith("run.log#module_0003.jit_neg"), m.info().files().toString());
    }

    @Test
    void aModuleNamedTwiceLoadsOnce() throws Exception {
        Path dir = Fixtures.path("jax010-mlp");
        Path one = dir.resolve("./module_0012.jit_mlp.cpu_after_optimizations-live-range.txt");
        List<ModuleSource> s = DumpLoader.discover(List.of(dir, one));
        assertEquals(1, s.size());
        assertEquals(4, s.get(0).files().size());
    }

    @Test
    void aDirectoryAlsoFindsRenamedDumpsButNotHloText() throws Exception {
        List<ModuleSource> s = DumpLoader.discover(List.of(Fixtures.path("loose")));
        assertEquals(1, s.size(), s.toString());
        assertTrue(s.get(0).files().get(0).endsWith("collected-run-7.txt"));
        HloModule m = s.get(0).load();
        assertEquals(0, m.warningCount());
        assertEquals(208L, m.totalBytes());
    }

    @Test
    void veryLongInstructionLinesAreReadWhole() throws Exception {
        StringBuilder ops = new StringBuilder();
        for (int i = 0; i < 12; i++) ops.append(i == 0 ? "" : ", ").append(i == 5 || i == 10 ? "/*index=" + i + "*/" : "").append("%x.1");
        String config = "{\"blob\":\"" + "ab(c)".repeat(4000) + "\"}";
        String text = BadInputTest.GOOD.replace("%neg.2 = f32[8]{0} negate(%x.1)",
                "%neg.2 = f32[8]{0} custom-call(" + ops + "), custom_call_target=\"t\", "
                        + "metadata={op_name=\"a \\\"quoted\\\" }name\" source_file=\"/s.py\" source_line=7}, backend_config=" + config);
        HloModule m = DumpLoader.loadText(BadInputTest.NAME, text);
        assertEquals(0, m.warningCount(), () -> m.warnings().toString());
        HloInstruction neg = m.instruction("neg.2");
        assertEquals("custom-call", neg.opcode());
        assertEquals(12, neg.operands().size());
        assertEquals("a \"quoted\" }name", neg.opName());
        assertEquals(7, neg.sourceLine());
        assertTrue(neg.attributes().length() > 20_000);
        assertTrue(neg.attributes().endsWith("\"}"));
    }

    @Test
    void loadTextReadsADumpFromMemory() throws Exception {
        Path f = Fixtures.path("late2025/module_0007.jit__unstack.cpu_after_optimizations-buffer-assignment.txt");
        HloModule m = DumpLoader.loadText(f.getFileName().toString(), Files.readString(f));
        assertEquals("jit__unstack", m.handle());
        assertEquals(4, m.values().size());
        assertEquals(0, m.warningCount());
    }

    @Test
    void directoryLoadsEveryModuleInside() throws Exception {
        List<ModuleSource> all = DumpLoader.discover(List.of(Fixtures.path("")));
        // tf-era, old2024, late2025, jax010-mlp, analysis-off, tpu, report-only, loose, and the two
        // modules of framed-stdout.log: a file that loads when named loads from its directory too;
        // the five programs of oom-cpu/pair; the MLP at seven batches and microbatched (mlp-batch); and the kernel
        // smoother (kernel-smoother); the RNN that ran out of memory and its microbatched step (rnn-oom); a
        // contrastive step whole and chunked (contrastive); a graph network whole and chunked (gnn); a DP-SGD
        // step whole and at a quarter of its batch (dpsgd); a refused TPU compile (tpu-refused); a jitted
        // initialiser and the step that takes its outputs (init-step); a refused TPU compile whose loop runs
        // over time (tpu-ode).
        assertEquals(36, all.size(), all.size() + " modules");
    }
}
