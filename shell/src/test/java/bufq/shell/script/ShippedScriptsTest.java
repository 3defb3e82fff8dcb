package bufq.shell.script;

import bufq.analysis.check.Checks;
import bufq.api.Extensions;
import bufq.analysis.check.CheckReport;
import bufq.analysis.check.Finding;
import bufq.analysis.check.Severity;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.shell.session.Setting;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** The four scripts in scripts/ on real dumps: the seeds always, the corpus when present. */
class ShippedScriptsTest {
    static Path script(String rel) { return Harness.root().resolve("scripts").resolve(rel); }

    static List<Path> seeds() throws Exception {
        try (Stream<Path> s = Files.list(Harness.root().resolve("examples/seeds"))) {
            return s.filter(p -> p.toString().endsWith(".txt")).sorted().toList();
        }
    }

    static Path corpus() { return Corpus.dir(); }

    /** Every module of the corpus, loaded directory by directory. */
    static List<HloModule> corpusModules() throws Exception {
        Path c = corpus();
        Corpus.require(c);
        List<HloModule> out = new ArrayList<>();
        List<Path> dirs;
        try (Stream<Path> w = Files.walk(c)) {
            dirs = w.filter(Files::isDirectory).sorted().toList();
        }
        for (Path d : dirs) {
            boolean dumps;
            try (Stream<Path> s = Files.list(d)) {
                dumps = s.anyMatch(f -> f.getFileName().toString().endsWith(".txt") && Files.isRegularFile(f));
            }
            if (dumps) out.addAll(DumpLoader.load(List.of(d)));
        }
        assertFalse(out.isEmpty());
        return out;
    }

    static List<HloModule> seedModules() throws Exception {
        List<HloModule> out = new ArrayList<>();
        for (Path p : seeds()) out.addAll(DumpLoader.load(List.of(p)));
        return out;
    }

    /** Compares tpu.js with the built-in rule on every array value; returns how many were compared. */
    static int compareTiling(List<HloModule> modules) throws Exception {
        try (Harness h = new Harness()) {
            h.ok("run " + script("tiling/tpu.js"));
            h.shell.settings().set(Setting.TILING, "tpu-js");
            TilingModel js = h.shell.settings().tiling();
            assertEquals("tpu-js", js.name());
            int compared = 0;
            for (HloModule m : modules) {
                for (HloValue v : m.values()) {
                    if (v.shape() == null || !v.shape().isArray()) continue;
                    assertEquals(TilingModel.TPU.paddedBytes(v, m), js.paddedBytes(v, m),
                            () -> m.info().files().get(0) + ": " + v.label() + " " + v.shape().text());
                    compared++;
                }
            }
            return compared;
        }
    }

    @Test
    void tpuJsMatchesTheBuiltinRuleOnTheSeeds() throws Exception {
        List<HloModule> ms = seedModules();
        long tiled = ms.stream().flatMap(m -> m.values().stream()).filter(v -> v.shape() != null && !v.shape().tiles().isEmpty()).count();
        assertTrue(tiled > 0, "the seeds have tiled TPU values");
        assertTrue(compareTiling(ms) > 0);
    }

    @Test
    void tpuJsMatchesTheBuiltinRuleOnEveryCorpusValue() throws Exception {
        assertTrue(compareTiling(corpusModules()) > 1000);
    }

    @Test
    void tpuJsDrivesPaddedSizeInQueries() throws Exception {
        try (Harness h = new Harness().load(Harness.seed(0))) {
            String builtin = h.ok("values order by id show id, padded_size, padding");
            h.ok("run " + script("tiling/tpu.js"));
            h.ok("set tiling tpu-js");
            assertEquals(builtin, h.ok("values order by id show id, padded_size, padding"));
        }
    }

    @Test
    void wasteIsSizeMinusLogicalSize() throws Exception {
        for (Path seed : seeds()) {
            try (Harness h = new Harness().load(seed)) {
                h.ok("run " + script("fields/waste.js"));
                h.ok("format csv");
                h.ok("set maxrows 0");
                String csv = h.ok("values show waste, size, logical_size");
                List<String> lines = csv.lines().skip(1).toList();
                assertFalse(lines.isEmpty(), seed.toString());
                for (String l : lines) {
                    String[] c = l.split(",", -1);
                    if (c[2].isEmpty()) continue;
                    assertEquals(Long.parseLong(c[1]) - Long.parseLong(c[2]), Long.parseLong(c[0]), seed + ": " + l);
                }
                assertTrue(h.ok("fields values").contains("waste"), "fields lists it");
                assertNotNull(h.shell.engine().catalog().field("values", "waste"), "completion reads this catalog");
                var ctx = bufq.lang.assist.Completion.at("values where wa", 15, h.shell.engine().catalog());
                assertEquals("values", ctx.entity());
                assertTrue(ctx.expected().contains(bufq.lang.assist.Completion.Kind.FIELD), ctx.toString());
            }
        }
        try (Harness h = new Harness().load(Harness.seed(0))) {
            h.ok("run " + script("fields/waste.js"));
            String out = h.ok("values where waste > 0 order by waste desc show label, waste");
            assertTrue(out.contains("add.3"), "the TPU seed's scalar with 4 KiB: " + out);
        }
    }

    /** Findings (severity, subject, message) of the built-in overlap check and of no-overlap.js. */
    static void sameOverlapFindings(Harness h, HloModule m) {
        h.shell.modules().addModules(List.of(m));
        CheckReport r = Checks.check(h.shell.current(), TilingModel.TPU, Extensions.checks(h.shell.scriptChecks()));
        List<String> builtin = r.of("overlap").stream().map(f -> f.severity() + " " + f.subject() + ": " + f.message()).sorted().toList();
        List<String> js = r.of("no-overlap").stream().map(f -> f.severity() + " " + f.subject() + ": " + f.message()).sorted().toList();
        assertEquals(builtin, js, m.handle() + ": " + r.findings());
        assertTrue(r.of("no-overlap").stream().noneMatch(f -> f.message().startsWith("check failed")), r.findings().toString());
    }

    @Test
    void noOverlapAgreesWithTheBuiltinCheck() throws Exception {
        try (Harness h = new Harness()) {
            h.ok("run " + script("checks/no-overlap.js"));
            for (HloModule m : seedModules()) sameOverlapFindings(h, m);
            HloModule bad = Doctored.overlapping();
            sameOverlapFindings(h, bad);
            CheckReport r = Checks.check(bad, TilingModel.TPU, Extensions.checks(h.shell.scriptChecks()));
            assertEquals(List.of("b", "doctored"), r.of("no-overlap").stream().map(Finding::subject).toList(),
                    "b overlaps a; c only hands over: " + r.findings());
            assertEquals("bytes [32, 64) live 2-4 overlap a bytes [0, 64) live 0-3 in allocation 0 at steps 2-3",
                    r.of("no-overlap").get(0).message());
            assertTrue(r.of("no-overlap").get(1).message().startsWith("1 hand-over "), r.findings().toString());
            HloModule outputs = Doctored.twoOutputs();
            sameOverlapFindings(h, outputs);
            CheckReport o = Checks.check(outputs, TilingModel.TPU, Extensions.checks(h.shell.scriptChecks()));
            assertEquals(List.of("d{1}"), o.of("no-overlap").stream().map(Finding::subject).toList(), o.findings().toString());
            assertEquals(Severity.ERROR, o.of("no-overlap").get(0).severity());
        }
    }

    @Test
    void noOverlapAgreesOnTheCorpus() throws Exception {
        List<HloModule> ms = corpusModules();
        try (Harness h = new Harness()) {
            h.ok("set timeout 60");
            h.ok("run " + script("checks/no-overlap.js"));
            for (HloModule m : ms) sameOverlapFindings(h, m);
        }
    }

    @Test
    void topAtPeakWritesMarkdown() throws Exception {
        Path mlp = Harness.root().resolve("examples/jax-mlp");
        try (Harness h = new Harness().load(mlp)) {
            String md = h.ok("run " + script("reports/top-at-peak.js"));
            assertTrue(md.startsWith("# Memory at the peak of "), md);
            assertTrue(md.contains("| value | logical | assigned | share | shape | op_name | source |"), md);
            h.ok("format csv");
            String top = h.ok("values where live at peak order by logical_size desc, id limit 1 show label").lines().skip(1).findFirst().orElseThrow();
            String firstRow = md.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| value")).findFirst().orElseThrow();
            assertTrue(firstRow.startsWith("| " + top + " |"), firstRow + " vs " + top);
            long rows = md.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| value")).count();
            assertTrue(rows >= 1 && rows <= 10, md);
        }
    }
}
