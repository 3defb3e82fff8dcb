package bufq.dump;

import bufq.model.HloValue;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DumpLoader#discover(List, Path)}: relative paths read under a base directory (a resident
 * server's client), names spelled as the user wrote them, as a run started in that directory gives.
 */
class DiscoverBaseTest {
    private static final Path FIXTURES = Fixtures.path("").toAbsolutePath();
    private static final String BMLP = "module_0012.jit_mlp.cpu_after_optimizations-buffer-assignment.txt";

    /** What a run started in FIXTURES prints for {@code rel}: the absolute run with FIXTURES/ cut from every name. */
    @ParameterizedTest
    @ValueSource(strings = {"jax010-mlp", "jax010-mlp/" + BMLP, "./tpu", "tpu/../late2025", "loose",
            "loose/collected-run-7.txt", "framed-stdout.log", "old2024/", "."})
    void relativeUnderBaseIsTheAbsoluteRunSpelledAsGiven(String rel) throws LoadException {
        String cut = FIXTURES + "/";
        List<String> expected = describe(DumpLoader.discover(List.of(FIXTURES.resolve(rel))), cut);
        List<String> got = describe(DumpLoader.discover(List.of(Path.of(rel)), FIXTURES), cut);
        assertEquals(expected, got);
        // Spelled as given: no name of the relative run is absolute.
        for (ModuleSource s : DumpLoader.discover(List.of(Path.of(rel)), FIXTURES)) {
            for (DumpFile f : s.dumpFiles()) {
                String under = Files.isDirectory(FIXTURES.resolve(rel)) || Path.of(rel).getParent() == null
                        ? Path.of(rel).toString() : Path.of(rel).getParent().toString();
                assertTrue(f.name().startsWith(under), f.name() + " not under " + under);
                assertFalse(f.origin().startsWith("/"), f.origin());
            }
        }
    }

    /** Loading: the same modules, warnings and file lists naming the relative spelling. */
    @ParameterizedTest
    @ValueSource(strings = {"jax010-mlp", "tpu/../tpu", "framed-stdout.log", "loose"})
    void loadedModulesEqualTheAbsoluteLoad(String rel) throws LoadException {
        String cut = FIXTURES + "/";
        List<HloModule> abs = DumpLoader.load(List.of(FIXTURES.resolve(rel)));
        List<HloModule> got = DumpLoader.load(List.of(Path.of(rel)), FIXTURES);
        assertEquals(abs.size(), got.size());
        for (int i = 0; i < abs.size(); i++) {
            assertEquals(fingerprint(abs.get(i), cut), fingerprint(got.get(i), ""));
            for (String f : got.get(i).info().files()) assertTrue(f.startsWith(Path.of(rel).toString()), f);
        }
    }

    @Test
    void warningsAndTruncationNameTheFileAsGiven(@TempDir Path base) throws Exception {
        // A dump with one bad line (a warning), as a named file, a loose .txt and a framed log.
        String bad = TinyDump.COMPLETE.replace(" value: <1 neg.2 @0>", " value: <1 neg.3 @0>");
        Files.createDirectories(base.resolve("d"));
        Files.writeString(base.resolve("d/" + TinyDump.NAME), bad);
        Files.writeString(base.resolve("d/loose.txt"), bad);
        Files.writeString(base.resolve("run.log"), "*** Begin " + TinyDump.NAME + " ***\n" + bad + "*** End " + TinyDump.NAME + " ***\n");
        for (String rel : List.of("d", "d/" + TinyDump.NAME, "./d/../d/loose.txt", "run.log")) {
            List<HloModule> abs = DumpLoader.load(List.of(base.resolve(rel)));
            List<HloModule> got = DumpLoader.load(List.of(Path.of(rel)), base);
            List<String> warnings = new ArrayList<>();
            for (HloModule m : got) m.warnings().forEach(w -> warnings.add(w.toString()));
            assertFalse(warnings.isEmpty(), rel);
            for (String w : warnings) assertTrue(w.startsWith(Path.of(rel).toString()) || w.startsWith("d/"), w);
            for (int i = 0; i < abs.size(); i++) assertEquals(fingerprint(abs.get(i), base + "/"), fingerprint(got.get(i), ""));
        }
    }

    @Test
    void aBareFileNameFindsItsSiblingsUnderTheBase() throws LoadException {
        Path dir = FIXTURES.resolve("jax010-mlp");
        List<ModuleSource> got = DumpLoader.discover(List.of(Path.of(BMLP)), dir);
        assertEquals(1, got.size());
        assertEquals(List.of(BMLP, BMLP.replace("-buffer-assignment.txt", "-buffer-assignment-values.txt"),
                        BMLP.replace("-buffer-assignment.txt", "-live-range.txt"),
                        BMLP.replace("-buffer-assignment.txt", "-memory-usage-report.txt")),
                got.get(0).files());
        assertEquals(describe(DumpLoader.discover(List.of(dir.resolve(BMLP))), dir + "/"), describe(got, dir + "/"));
        assertTrue(got.get(0).load().info().hasValueDetails());
    }

    @Test
    void aMissingRelativePathIsNamedAsGiven() {
        LoadException e = assertThrows(LoadException.class,
                () -> DumpLoader.discover(List.of(Path.of("nope/../missing.txt")), FIXTURES));
        assertEquals("nope/../missing.txt: no such file or directory", e.getMessage());
        // A file in the JVM's directory is not one in the base.
        Path jvmOnly = Path.of("pom.xml");
        if (Files.exists(jvmOnly) && !Files.exists(FIXTURES.resolve(jvmOnly))) {
            LoadException e2 = assertThrows(LoadException.class, () -> DumpLoader.discover(List.of(jvmOnly), FIXTURES));
            assertEquals("pom.xml: no such file or directory", e2.getMessage());
        }
        LoadException empty = assertThrows(LoadException.class, () -> DumpLoader.discover(List.of(Path.of("empty-dir")), FIXTURES));
        assertEquals("empty-dir: no buffer-assignment dumps in empty-dir", empty.getMessage());
    }

    @Test
    void anAbsolutePathIgnoresTheBase() throws LoadException {
        Path abs = FIXTURES.resolve("jax010-mlp");
        assertEquals(describe(DumpLoader.discover(List.of(abs)), ""),
                describe(DumpLoader.discover(List.of(abs), Path.of("/nonexistent/base")), ""));
    }

    /** The JVM's own directory as base changes nothing, not even the spelling of a relative path. */
    @Test
    void theJvmDirectoryAsBaseIsTheBaseLessRun() throws LoadException {
        Path jvm = Path.of("").toAbsolutePath();
        Path rel = jvm.relativize(FIXTURES.resolve("jax010-mlp"));
        assertEquals(describe(DumpLoader.discover(List.of(rel)), ""), describe(DumpLoader.discover(List.of(rel), jvm), ""));
    }

    @Test
    void examplesUnderTheCheckoutRoot() throws LoadException {
        Path root = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(root.resolve("examples/jax-mlp")),
                "examples not found at " + root);
        String cut = root + "/";
        for (String[] c : new String[][] {{"", "examples/jax-mlp"}, {"", "examples"}, {"scripts", "../examples/jax-mlp"},
                {"examples/jax-mlp", "module_0000.jit_f.cpu_after_optimizations-live-range.txt"}}) {
            Path base = root.resolve(c[0]);
            String baseCut = c[0].isEmpty() ? cut : base + "/";
            List<HloModule> abs = DumpLoader.load(List.of(base.resolve(c[1])));
            List<HloModule> got = DumpLoader.load(List.of(Path.of(c[1])), base);
            assertEquals(abs.size(), got.size(), c[1]);
            for (int i = 0; i < abs.size(); i++) assertEquals(fingerprint(abs.get(i), baseCut), fingerprint(got.get(i), ""), c[1]);
            assertEquals(describe(DumpLoader.discover(List.of(base.resolve(c[1]))), baseCut),
                    describe(DumpLoader.discover(List.of(Path.of(c[1])), base), baseCut), c[1]);
        }
    }

    /** Everything discovery names, with {@code cut} removed from the front of each name. */
    private static List<String> describe(List<ModuleSource> sources, String cut) {
        List<String> out = new ArrayList<>();
        for (ModuleSource s : sources) {
            out.add("module " + strip(s.key(), cut) + " " + s.name() + " " + s.number());
            for (DumpFile f : s.dumpFiles()) {
                out.add("  " + strip(f.name(), cut) + " " + f.kind() + " " + strip(f.origin(), cut) + ":" + f.firstLine()
                        + (f.text() == null ? "" : " text " + f.text().length()));
            }
        }
        return out;
    }

    private static List<String> fingerprint(HloModule m, String cut) {
        List<String> out = new ArrayList<>();
        out.add(m.info().handle() + " " + m.info().name() + " " + m.info().backend() + " " + m.info().maxTime()
                + " " + m.info().claimedTotalBytes() + " " + m.info().colorTotals() + " " + strip(m.info().truncatedAt(), cut));
        for (String f : m.info().files()) out.add("file " + strip(f, cut));
        m.warnings().forEach(w -> out.add("warning " + strip(w.toString(), cut)));
        out.add(m.allocations().toString());
        for (HloValue v : m.values()) {
            out.add(v.id() + " " + v.label() + " " + v.size() + "@" + v.offset() + " a" + v.allocation() + " " + v.shape()
                    + " " + v.range() + " " + v.positions() + " " + v.uses());
        }
        out.add(String.valueOf(m.instructions().size()) + " " + m.sequence());
        return out;
    }

    private static String strip(String s, String cut) {
        return s != null && !cut.isEmpty() && s.startsWith(cut) ? s.substring(cut.length()) : s;
    }
}
