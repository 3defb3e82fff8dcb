package bufq.analysis.oom;

import bufq.model.HloModule;
import bufq.table.Table;
import bufq.units.PrintedSize;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;

import static bufq.analysis.oom.OomFamiliesTest.FIXTURES;
import static bufq.analysis.oom.OomFamiliesTest.cell;
import static bufq.analysis.oom.OomFamiliesTest.load;
import static bufq.analysis.oom.OomFamiliesTest.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log around a failure: the warnings that explain it, read in the forms real logs print them and
 * joined to the modules of the corpus's oom-cpu/pair run (the copy in test resources), beside its OOM.
 */
class OomLogEventsTest {
    /** XLA's rematerialization warning as EnzymeAD/Enzyme-JAX#1363 pastes it (hlo_rematerialization.cc). */
    static final String REMAT = "W0000 00:00:1756998431.440298    5182 hlo_rematerialization.cc:3183] Can't reduce memory use "
            + "below 10.64GiB (11428802214 bytes) by rematerialization; only reduced to 71.27GiB (76523901244 bytes), down from "
            + "73.51GiB (78931543988 bytes) originally";

    @Test
    void rematerializationKeepsItsExactCounts() {
        OomText t = OomReader.read(REMAT);
        assertTrue(t.messages().isEmpty());
        LogEvent e = t.events().get(0);
        assertEquals("rematerialization", e.kind());
        assertEquals(11_428_802_214L, e.figures().get("target").low());
        assertEquals(76_523_901_244L, e.figures().get("reduced to").low());
        assertEquals(78_931_543_988L, e.figures().get("originally").low());
        assertTrue(e.figures().values().stream().allMatch(PrintedSize::isExact));
    }

    @Test
    void donationsListTheirShapesAndBytes() {
        // jax-ml/jax#9237
        LogEvent e = OomReader.read("/usr/lib/python3/site-packages/jax/_src/interpreters/mlir.py:705: UserWarning: Some donated "
                + "buffers were not usable: ShapedArray(float32[185,16,16,3]), ShapedArray(int32[185]).").events().get(0);
        assertEquals(List.of("f32[185,16,16,3]", "s32[185]"), e.shapes());
        assertEquals(185L * 16 * 16 * 3 * 4 + 185 * 4, e.figures().get("not donated").low());
        // jax-ml/jax#1273's older form prints XLA's shape with its layout
        assertEquals(List.of("f32[524288,32,32,1]"), OomReader.read(
                "jax/interpreters/xla.py:660: UserWarning: Some donated buffers were not usable: f32[524288,32,32,1]{3,2,1,0}")
                .events().get(0).shapes());
    }

    @Test
    void aJitCompiledTwiceIsOneRecompilation() {
        // PlasmaControl/DESC#1191's jax_log_compiles lines
        OomText t = OomReader.read("""
                Compiling compute_scaled_error with global shapes and types [ShapedArray(float64[298])]. Argument mapping: [UnspecifiedValue].
                Compiling project with global shapes and types [ShapedArray(float64[298])]. Argument mapping: [UnspecifiedValue].
                Compiling compute_scaled_error with global shapes and types [ShapedArray(float64[298])]. Argument mapping: [UnspecifiedValue].
                """);
        assertEquals(1, t.events().size());
        LogEvent e = t.events().get(0);
        assertEquals("recompilation", e.kind());
        assertEquals("compute_scaled_error", e.program());
        assertEquals(List.of(1, 3), e.lines());
    }

    /**
     * The corpus run's own memory_analysis.json as a CI prints it, the warnings of the same run around
     * its OOM (donation and compile lines in JAX's words with this run's shapes and names): each joined
     * to its module, beside the OOM.
     */
    @Test
    void warningsJoinTheCorpusModulesBesideTheOom() throws Exception {
        // ci.log: memory_analysis.json, two compile lines, a donation, run.log's message twice (docs/oom.md shows it)
        String log = Files.readString(FIXTURES.resolve("oom-cpu/pair/ci.log"));
        assertTrue(log.startsWith(Files.readString(FIXTURES.resolve("oom-cpu/pair/memory_analysis.json"))));
        List<HloModule> modules = load("oom-cpu/pair/dump");
        OomText t = OomReader.read(log);
        assertEquals(1, t.messages().size());
        assertEquals(2, t.messages().get(0).times());
        Table w = table(OomReport.run(t, modules), "warnings in the log");
        assertEquals(4, w.size());
        // the memory analyses, by name; module_0008's temp is its 4,608,000,000-byte temp allocation
        assertEquals("memory-analysis", cell(w, 0, "kind"));
        assertEquals("module_0004.jit__lambda", cell(w, 0, "program"));
        assertEquals("module_0008.jit__lambda", cell(w, 1, "program"));
        String m8 = handleOf(modules, 8);
        assertEquals(m8, cell(w, 1, "module"));
        assertTrue(cell(w, 1, "evidence").toString().contains("its temp and parameter allocations are these figures"),
                cell(w, 1, "evidence").toString());
        assertEquals(4_608_000_000L, t.events().get(1).figures().get("temp_size_in_bytes").low());
        // the jit compiled twice is both modules of that name
        assertEquals("recompilation", cell(w, 2, "kind"));
        assertEquals(String.join(", ", handleOf(modules, 4), m8), cell(w, 2, "module"));
        // the lost donation is the shape of module_0008's parameter
        assertEquals("donation", cell(w, 3, "kind"));
        assertEquals(m8, cell(w, 3, "module"));
        assertEquals(96_000L, t.events().get(3).figures().get("not donated").low());
        // all beside the one OOM, which joins module_0008's allocation 15
        for (int r = 0; r < w.size(); r++) assertEquals(1L, cell(w, r, "beside"));
        Table mods = table(OomReport.run(t, modules), "which module and allocation");
        assertEquals(15L, cell(mods, 0, "allocation"));
    }

    @Test
    void aLogWithWarningsAndNoOomGivesOnlyTheWarnings() throws Exception {
        List<HloModule> modules = load("oom-cpu/pair/dump");
        OomText t = OomReader.read(REMAT);
        var out = OomReport.run(t, modules);
        assertEquals(1, out.size());
        Table w = table(out, "warnings in the log");
        assertNull(w.columns().stream().filter(c -> c.name().equals("beside")).findFirst().orElse(null));
    }

    private static String handleOf(List<HloModule> modules, int number) {
        for (HloModule m : modules) if (m.info().number() == number) return m.handle();
        throw new AssertionError("no module " + number);
    }
}
