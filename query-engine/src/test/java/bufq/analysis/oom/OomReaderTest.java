package bufq.analysis.oom;

import bufq.table.Output;
import bufq.table.Table;
import bufq.units.PrintedSize;
import bufq.units.Units;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What users paste: sizes as printed, noise around messages, bad input; and the join's unmatched and ambiguous cases. */
class OomReaderTest {
    @Test
    void sizesKeepThePrintedRoundingAsAnInterval() {
        PrintedSize exact = Units.printedOrNull("(337385120B)");
        assertTrue(exact.isExact());
        assertEquals(337385120L, exact.low());
        assertEquals(0, Units.printedOrNull("0B").high());
        // HumanReadableNumBytes: 6.00MiB is 6139..6149 KiB (truncated) give or take, whole KiB
        PrintedSize mib = Units.printedOrNull("6.00MiB");
        assertTrue(mib.contains(6291456) && mib.contains(6291456 + 5000) && !mib.contains(6291456 + 20000));
        assertEquals(6286336, mib.low(), "docs/oom.md's figure");
        assertEquals(6297599, mib.high(), "docs/oom.md's figure");
        PrintedSize kib = Units.printedOrNull("384.0KiB");
        assertTrue(kib.contains(393216) && kib.contains(393216 + 51) && !kib.contains(393216 + 52));
        PrintedSize g = Units.printedOrNull("63.80G");
        assertTrue(g.contains((long) (63.8 * (1L << 30))) && !g.isExact());
        assertTrue(Units.printedOrNull("530.00M").contains(530L << 20));
        assertEquals(4608000000L, Units.printedOrNull("4608000000 bytes").low());
        assertNull(Units.printedOrNull("six"));
        assertNull(Units.printedOrNull("12 apples"));
    }

    @Test
    void textWithoutAMessageGivesNone() {
        OomText t = OomReader.read("Traceback (most recent call last):\n  File \"x.py\", line 3\nValueError: memory is fine\n");
        assertTrue(t.messages().isEmpty());
        assertEquals(3, t.lines());
    }

    @Test
    void logPrefixesTabsAndTwoFamiliesInOnePaste() {
        String text = "I1127 10:00:00.000000  1234 some.cc:10] starting\n"
                + "2024-05-01 12:00:00.123456: E external/xla/xla/pjrt/cpu/cpu_client.cc:2732] \tRESOURCE_EXHAUSTED: Out of memory allocating 4608000000 bytes.\n"
                + "something else\n"
                + "XlaRuntimeError: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 8.00M. That was not possible. There are 6.43M free.; (0x0x1_HBM0)\n";
        OomText t = OomReader.read(text);
        assertEquals(2, t.messages().size());
        assertEquals(Family.CPU, t.messages().get(0).family());
        assertEquals(2, t.messages().get(0).line());
        assertEquals(4608000000L, t.messages().get(0).requested().low());
        assertEquals(Family.TPU_BUFFER, t.messages().get(1).family());
        assertEquals(4, t.messages().get(1).line());
    }

    @Test
    void aHeadlineRewrappedByTheTerminal() {
        OomText t = OomReader.read("RESOURCE_EXHAUSTED: Out of memory while trying\nto allocate 49592744 bytes.\n");
        assertEquals(1, t.messages().size());
        assertEquals(49592744L, t.messages().get(0).requested().low());
    }

    /** error_1000.md's example as a browser glued its lines: entries and summary rows on one line. */
    @Test
    void tpuLinesGluedTogether() {
        String text = "(0) Resource exhausted: {{function_node __inference_train_function_80576}} Ran out of memory in memory space hbm. "
                + "Used 19.46G of 15.48G hbm. Exceeded hbm capacity by 3.98G.\nTotal hbm usage >= 19.98G: \n    reserved 530.00M \n"
                + "    program 19.46G\n    arguments 0BOutput size 0B; shares 0B with arguments.Program hbm requirement 19.46G:\n"
                + "    global 276.0K\n    scoped 173.0K\n    HLO temp 19.46G (33.1% utilization: Unpadded (6.40G) Padded (19.32G), "
                + "0.7% fragmentation (147.91M)) Largest program allocations in hbm:\n\n  1\\. Size: 14.00G \n"
                + "     Operator: op_type=\"OneHot\" op_name=\"model/loss/one_hot\"\n     Shape: s32[29360128,10]{1,0:T(8,128)}\n"
                + "     Unpadded size: 1.09G\n     Extra memory due to padding: 12.91G (12.8x expansion)\n"
                + "     XLA label: %iota.2 = s32[29360128,10]{1,0:T(8,128)} iota(), iota_dimension=1\n"
                + "     Allocation type: HLO temp\n     ========================== 2\\. Size: 2.62G\n"
                + "     Operator: op_name=\"model/layer_1/Conv2D\"\n     Shape: f32[128,256,896,18]{0,3,2,1:T(8,128)}\n"
                + "     XLA label: %fusion.9.remat.1.remat = f32[128,256,896,18]{0,3,2,1:T(8,128)} fusion(f32[1,1,8,18]{3,2,1,0:T(8,128)} %get-tuple-element.4316)\n"
                + "     Allocation type: HLO temp\n     ==========================\n";
        OomMessage m = OomReader.read(text).messages().get(0);
        assertTrue(m.capacity().contains((long) (15.48 * (1L << 30))));
        assertTrue(m.figures().get("reserved").contains(530L << 20));
        assertEquals(0, m.figures().get("arguments").high());
        assertTrue(m.figures().get("program requirement").contains((long) (19.46 * (1L << 30))));
        assertTrue(m.figures().get("HLO temp unpadded").contains((long) (6.40 * (1L << 30))));
        assertEquals(2, m.buffers().size());
        assertEquals(1, m.buffers().get(0).rank());
        assertEquals("iota.2", m.buffers().get(0).instruction());
        assertEquals("iota", m.buffers().get(0).opcode());
        assertEquals("model/loss/one_hot", m.buffers().get(0).opName());
        assertEquals(2, m.buffers().get(1).rank());
        assertEquals("fusion.9.remat.1.remat", m.buffers().get(1).instruction());
        assertEquals("fusion", m.buffers().get(1).opcode());
    }

    @Test
    void aMessageCutOffIsWarnedAboutAtItsLine() {
        String text = "noise\n" + OomFamiliesTest.GPU.substring(0, OomFamiliesTest.GPU.indexOf("XLA Label:"));
        OomText t = OomReader.read(text);
        OomMessage m = t.messages().get(0);
        assertEquals(2, m.buffers().size(), "the cut entry is kept");
        List<OomWarning> w = t.allWarnings();
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).message().startsWith("entry cut off"), w.toString());
        assertEquals(18, w.get(0).line(), "the cut entry's Size: line");
        OomText headless = OomReader.read("RESOURCE_EXHAUSTED: Out of memory while trying to allocate");
        assertEquals(1, headless.messages().size());
        assertNull(headless.messages().get(0).requested());
        assertEquals("line 1: message cut off: expected a size after 'trying to allocate'", headless.allWarnings().get(0).toString());
    }

    @Test
    void binaryInputIsSkippedWithAWarning() {
        byte[] junk = new byte[64 * 1024];
        new Random(28).nextBytes(junk);
        for (int i = 0; i < junk.length; i += 97) junk[i] = 0;
        byte[] msg = "\nRESOURCE_EXHAUSTED: Out of memory allocating 4608000000 bytes.\n".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[junk.length + msg.length];
        System.arraycopy(junk, 0, all, 0, junk.length);
        System.arraycopy(msg, 0, all, junk.length, msg.length);
        OomText t = OomReader.read(all);
        assertEquals(1, t.messages().size());
        assertEquals(1, t.warnings().size());
        assertTrue(t.warnings().get(0).message().contains("binary data"), t.warnings().toString());
        assertTrue(OomReader.read(junk).messages().isEmpty());
    }

    /**
     * A 50 MB log with one message in the middle: found, in time linear in the text. The issue asks
     * for under 2 s; a shared test machine can be ten times slower than an idle one, so the bound is
     * 2 s or 25 times what decoding the bytes and finding the line ends takes, whichever is larger
     * (a quadratic reader would take minutes).
     */
    @Test
    void fiftyMegabytesOfLog() {
        StringBuilder b = new StringBuilder(52 << 20);
        String line = "I1127 10:00:00.000000  1234 bfc_allocator.cc:10] step 1234: loss 0.25, 12.5GiB of 16GiB in use\n";
        String memory = "I1127 10:00:00.000000  1234 client.cc:10] memory in use by program jit_step: 12.5GiB; Out of band\n";
        int k = 0;
        while (b.length() < 25 << 20) b.append(k++ % 10 == 0 ? memory : line);
        b.append("jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 4608000000 bytes.\n");
        while (b.length() < 50 << 20) b.append(k++ % 10 == 0 ? memory : line);
        byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
        OomReader.read(bytes);   // warm up the JIT once
        // the thread's CPU time, not the wall clock: other processes on the machine do not count
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long t0 = cpu.getCurrentThreadCpuTime();
        String text = new String(bytes, StandardCharsets.UTF_8);
        int lines = 0;
        for (int p = 0; (p = text.indexOf('\n', p) + 1) > 0; ) lines++;
        double baseline = (cpu.getCurrentThreadCpuTime() - t0) / 1e9;
        t0 = cpu.getCurrentThreadCpuTime();
        OomText t = OomReader.read(bytes);
        double seconds = (cpu.getCurrentThreadCpuTime() - t0) / 1e9;
        assertEquals(1, t.messages().size());
        assertEquals(lines, t.lines());
        assertTrue(seconds < Math.max(2.0, 25 * baseline), "50 MB read in " + seconds + " s (decoding and splitting: " + baseline + " s)");
    }

    @Test
    void unmatchedSaysWhatItLikelyWasAndWhatToLoad() throws Exception {
        String text = "RESOURCE_EXHAUSTED: Out of memory allocating 12345 bytes.";
        List<Output> out = OomReport.run(OomReader.read(text), OomCorpusTest.load(OomCorpusTest.FIXTURE.resolve("dump")));
        Table mods = OomFamiliesTest.table(out, "which module and allocation");
        assertEquals(1, mods.size());
        assertNull(OomFamiliesTest.cell(mods, 0, "module"));
        assertTrue(((String) OomFamiliesTest.cell(mods, 0, "evidence")).startsWith("no loaded module has an allocation of 12,345 B"));
        assertTrue(((String) OomFamiliesTest.cell(mods, 0, "next")).startsWith("load the dump directory"));
    }

    /** Two programs named jit__lambda: both named, ranked equal, each marked ambiguous. */
    @Test
    void ambiguousCandidatesAreAllNamed() throws Exception {
        String text = "Error loading program 'jit__lambda': Attempting to reserve 2.00M at the bottom of memory. "
                + "That was not possible. There are 1.50M free, 0B reserved, and 1.50M reservable.";
        List<Output> out = OomReport.run(OomReader.read(text), OomCorpusTest.load(OomCorpusTest.FIXTURE.resolve("dump")));
        Table mods = OomFamiliesTest.table(out, "which module and allocation");
        assertEquals(2, mods.size());
        // equal evidence: the one compiled later ranks first (a run stops at its failure)
        assertEquals("module_0008.jit__lambda", OomFamiliesTest.cell(mods, 0, "module"));
        assertEquals("module_0004.jit__lambda", OomFamiliesTest.cell(mods, 1, "module"));
        assertTrue(((String) OomFamiliesTest.cell(mods, 0, "evidence")).contains("compiled after"));
        for (int r = 0; r < 2; r++)
            assertTrue(((String) OomFamiliesTest.cell(mods, r, "evidence")).contains("ambiguous: 2 modules"), "row " + r);
    }
}
