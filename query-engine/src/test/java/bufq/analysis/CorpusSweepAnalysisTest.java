package bufq.analysis;

import bufq.analysis.waste.Waste;
import bufq.analysis.blame.Blame;
import bufq.analysis.peak.Peak;
import bufq.analysis.blame.BlameBy;
import bufq.analysis.blame.StackTree;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.map.AllocationMap;
import bufq.analysis.check.Checks;
import bufq.analysis.check.CheckReport;
import bufq.analysis.check.Finding;
import bufq.analysis.check.Severity;
import bufq.analysis.liveness.Liveness;
import bufq.dump.DumpLoader;
import bufq.dump.file.ModuleSource;
import bufq.format.FormatOptions;
import bufq.format.Formatters;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Every analysis on every module of the corpus and the examples: no exception, and check finds no errors. */
class CorpusSweepAnalysisTest {
    static Path root() { return Paths.get(System.getProperty("bufq.root", ".")); }

    static List<Path> dumps() {
        List<Path> paths = new ArrayList<>();
        Path corpus = Corpus.require(Corpus.dir());
        paths.add(corpus);
        Path mlp = root().resolve("examples/jax-mlp");
        if (Files.isDirectory(mlp)) paths.add(mlp);
        // Seeds are single files with names the directory scan does not take for dumps: one by one.
        try (var seeds = Files.list(root().resolve("examples/seeds"))) {
            seeds.filter(f -> f.toString().endsWith(".txt")).sorted().forEach(paths::add);
        } catch (java.io.IOException e) {
            // no seeds in this checkout
        }
        return paths;
    }

    @Test
    void everyAnalysisRunsOnEveryModuleAndCheckIsClean() throws Exception {
        List<String> errors = new ArrayList<>();
        int modules = 0, trees = 0, notes = 0;
        long handOvers = 0;
        for (Path p : dumps()) {
            for (ModuleSource src : DumpLoader.discover(List.of(p))) {
                HloModule m = src.load();
                modules++;
                String where = src.files().get(0).toString();
                try {
                    runAll(m);
                } catch (RuntimeException e) {
                    errors.add(where + ": " + e);
                    e.printStackTrace();
                }
                // The dump does not say which computation an instruction sits in, so a rebuilt tree
                // cannot nest while bodies: compare only where the dump's tree is no deeper.
                // The dump's tree is for its label step: rebuild at that step to compare.
                int label = Liveness.of(m).claimedPeakTime();
                if (m.info().stackTrace() != null && label >= 0 && depth(m.info().stackTrace()) <= depth(StackTree.rebuild(m, label))) {
                    trees++;
                    var rebuilt = StackTree.rebuild(m, label);
                    String ours = StackTree.render(rebuilt, rebuilt.total())
                            .replace(" " + rebuilt.label() + " (", " " + m.info().stackTrace().label() + " (");
                    long header = m.info().stackTraceBytes() >= 0 ? m.info().stackTraceBytes() : m.info().stackTrace().total();
                    String theirs = StackTree.render(m.info().stackTrace(), header);
                    // XLA nests a while body's values under its loop (an XLA:TPU scan: 'while' > 'region_15.33_spmd'),
                    // which a rebuilt tree cannot: there the values, each at its bytes, must be the same
                    boolean nested = nestsALoop(m.info().stackTrace());
                    if (!ours.equals(theirs) && !(nested && leaves(rebuilt).equals(leaves(m.info().stackTrace()))))
                        errors.add(where + ": rebuilt stack tree differs:\n" + ours + "\nvs\n" + theirs);
                }
                CheckReport r = Checks.check(m, TilingModel.TPU, List.of());
                for (Finding f : r.findings()) {
                    // Errors fail; so does a peak claim bufq cannot reproduce (new style by value shapes,
                    // old style by instruction shapes, the moment by XLA's rule).
                    if (f.severity() == Severity.ERROR || (f.severity() == Severity.WARN && f.check().equals("peak-claim")))
                        errors.add(where + ": " + f);
                    else notes++;
                    if (f.check().equals("overlap") && f.severity() == Severity.INFO)
                        handOvers += Long.parseLong(f.message().substring(0, f.message().indexOf(' ')));
                }
            }
        }
        System.out.println("swept " + modules + " modules, " + trees + " stack trees rebuilt, " + notes
                + " check warnings/notes, " + handOvers + " hand-overs accepted by the overlap check");
        assertTrue(modules >= 70, "expected the whole corpus, swept " + modules);
        assertTrue(trees >= 20, "expected most new-style stack trees to be comparable, got " + trees);
        assertTrue(handOvers > 500, "the corpus reuses memory by hand-over; the check saw only " + handOvers);
        assertEquals(List.of(), errors);
    }

    /** The reader's era fixtures (TF-era pointers, stdout frames, reports only, ...) are small real shapes too. */
    @Test
    void everyAnalysisRunsOnTheReadersEraFixtures() throws Exception {
        Path dir = root().resolve("query-engine/src/test/resources/fixtures");
        assumeTrue(Files.isDirectory(dir), "fixtures not found at " + dir);
        int n = 0;
        for (String era : List.of("analysis-off", "jax010-mlp", "late2025", "old2024", "report-only", "tf-era", "tpu")) {
            Path p = dir.resolve(era);
            if (!Files.exists(p)) continue;
            for (ModuleSource src : DumpLoader.discover(List.of(p))) {
                runAll(src.load());
                n++;
            }
        }
        Path framed = dir.resolve("framed-stdout.log");
        if (Files.exists(framed)) for (ModuleSource src : DumpLoader.discover(List.of(framed))) {
            runAll(src.load());
            n++;
        }
        assertTrue(n >= 7, "expected the era fixtures, ran on " + n);
    }

    /** Whether the tree nests values under a loop ({@code .../while} with children). */
    static boolean nestsALoop(bufq.model.StackTraceNode n) {
        if (n.label().endsWith("/while") && !n.children().isEmpty()) return true;
        for (var c : n.children()) if (nestsALoop(c)) return true;
        return false;
    }

    /** The tree's leaves as {@code label bytes}, sorted: the values and their bytes, whatever the nesting. */
    static List<String> leaves(bufq.model.StackTraceNode n) {
        List<String> out = new ArrayList<>();
        collect(n, out);
        out.sort(null);
        return out;
    }

    private static void collect(bufq.model.StackTraceNode n, List<String> out) {
        if (n.children().isEmpty()) out.add(n.label() + " " + n.current());
        for (var c : n.children()) collect(c, out);
    }

    static int depth(bufq.model.StackTraceNode n) {
        int d = 0;
        for (var c : n.children()) d = Math.max(d, depth(c));
        return d + 1;
    }

    /**
     * Runs every analysis on {@code m} and checks what each claims: it answers (at least one
     * table or text), and its answer prints in every format; pictures are well-formed XML.
     */
    static void runAll(HloModule m) {
        answers(m, "peak", Peak.report(m, OptionalInt.empty(), Peak.DEFAULT_SMALL_THRESHOLD, TilingModel.TPU));
        for (int c : Liveness.of(m).colors()) answers(m, "peak of colour " + c, Peak.report(m, OptionalInt.of(c), 0, TilingModel.NONE));
        answers(m, "timeline", Timeline.chart(m, OptionalInt.empty(), 100));
        ChartsTest.parseUnchecked(Timeline.svg(m, OptionalInt.empty()));
        ChartsTest.parseUnchecked(Timeline.html(m, OptionalInt.empty()));
        for (var a : m.allocations()) {
            answers(m, "map of allocation " + a.index(), AllocationMap.chart(m, a.index(), 80));
            if (a.index() < 5) {
                ChartsTest.parseUnchecked(AllocationMap.svg(m, a.index()));
                ChartsTest.parseUnchecked(AllocationMap.html(m, a.index()));
            }
        }
        answers(m, "padding", Waste.padding(m, TilingModel.TPU));
        answers(m, "fragmentation", Waste.fragmentation(m));
        for (BlameBy by : BlameBy.values()) answers(m, "blame by " + by, Blame.atPeak(m, by, 0));
    }

    private static void answers(HloModule m, String analysis, List<? extends Output> out) {
        assertFalse(out.isEmpty(), analysis + " of " + m.handle() + " answered nothing");
        // One output at a time, so that each table is held to printing something
        for (Output o : out) {
            for (String format : Formatters.names()) {
                StringBuilder b = new StringBuilder();
                Formatters.writeAll(List.of(o), Formatters.byName(format), FormatOptions.DEFAULT, b);
                // ndjson is rows only: a table without rows is no line at all
                if (format.equals("ndjson") && o instanceof Table t && t.size() == 0) {
                    assertTrue(b.isEmpty(), analysis + " of " + m.handle() + ": an empty table in ndjson is no line");
                    continue;
                }
                assertFalse(b.toString().isBlank(), analysis + " of " + m.handle() + " printed nothing as " + format);
            }
        }
    }
}
