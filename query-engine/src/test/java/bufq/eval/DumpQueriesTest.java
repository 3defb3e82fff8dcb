package bufq.eval;

import bufq.model.MemorySpace;
import bufq.analysis.liveness.Liveness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import bufq.dump.DumpLoader;
import bufq.lang.QueryException;
import bufq.model.BufferAllocation;
import bufq.model.HloValue;
import bufq.model.HloModule;
import bufq.model.PeakClaim;
import bufq.table.Table;
import bufq.testing.Corpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The nine examples, exactly as written, on every seed and corpus module, with answers
 * checked against independent computations over the model.
 */
class DumpQueriesTest {
    static final List<String> EXAMPLES = List.of(
            "values where color=1 and live at 13",
            "values where live at peak order by size desc limit 10",
            "values where live at peak show sum(logical_size)",
            "values where name ~ \"fusion\" and size >= 4KiB show id, name, size, offset, allocation",
            "values group by color show color, count(), sum(size)",
            "values where live during 5..9 and color = 1 order by offset",
            "allocations where temp order by size desc",
            "instructions where opcode = \"fusion\" and op_name ~ \"softmax\"",
            "steps order by live_bytes desc limit 5");

    private static Path root() { return Path.of(System.getProperty("bufq.root", ".")); }

    @TestFactory
    Stream<DynamicTest> seeds() throws IOException {
        Path seeds = root().resolve("examples/seeds");
        assumeTrue(Files.isDirectory(seeds), "seeds not found at " + seeds);
        List<Path> files;
        try (Stream<Path> s = Files.list(seeds)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        assertFalse(files.isEmpty());
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> checkAll(f)));
    }

    @TestFactory
    Stream<DynamicTest> corpus() throws IOException {
        Path corpus = Corpus.require(Corpus.dir());
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> s = Files.walk(corpus, 3)) {
            s.filter(p -> !p.equals(corpus) && Files.isDirectory(p) && hasTxt(p)).sorted().forEach(dirs::add);
        }
        assertFalse(dirs.isEmpty());
        return dirs.stream().map(d -> DynamicTest.dynamicTest(corpus.relativize(d).toString(), () -> checkAll(d)));
    }

    private static boolean hasTxt(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(f -> f.getFileName().toString().endsWith("-buffer-assignment.txt"));
        } catch (IOException e) {
            return false;
        }
    }

    private static void checkAll(Path p) throws Exception {
        List<HloModule> modules = DumpLoader.load(List.of(p));
        assertFalse(modules.isEmpty());
        for (HloModule m : modules) check(m);
    }

    private static Table run(String q, HloModule m) throws QueryException {
        return Query.compile(q, Catalog.standard()).run(new EvalContext(m));
    }

    static void check(HloModule m) throws QueryException {
        String where = m.info().files().isEmpty() ? m.handle() : m.info().files().get(0);
        for (String q : EXAMPLES) run(q, m);

        int peak = Liveness.of(m).peakTime();
        // the peak's figures are the device memory's (colour 0) where the module has other spaces
        String device = MemorySpace.several(m) ? " and color = 0" : "";
        long sumAtPeak = (Long) run("values where live at peak" + device + " show sum(logical_size)", m).cell(0, 0);
        if (peak >= 0) assertEquals(Liveness.of(m).liveBytes(peak), sumAtPeak, where);
        PeakClaim claim = m.info().peakClaim();
        if (claim != null && claim.cumulative()) {
            long atLabel = (Long) run("values where live at claimed_peak show sum(logical_size)", m).cell(0, 0);
            assertEquals(claim.claimedBytes(), atLabel, where + ": dump's peak label");
        }

        // live at t through the interval index equals a brute-force filter
        int steps = m.steps();
        for (int t = 0; t < steps; t += Math.max(1, steps / 17)) {
            List<Object> brute = new ArrayList<>();
            for (HloValue v : m.values()) if (v.liveAt(t) && v.color() == 0) brute.add(v.id());
            Table viaIndex = run("values where live at " + t + " and color = 0 show id", m);
            assertEquals(brute, viaIndex.rows().stream().map(r -> r.get(0)).toList(), where + " t=" + t);
        }

        if (steps > 0) {
            long max = 0;
            for (int t = 0; t < Liveness.of(m).steps(); t++) max = Math.max(max, Liveness.of(m).liveBytes(t));
            assertEquals(max, run("steps order by live_bytes desc limit 5", m).cell(0, 2), where);
        }

        long count = 0, size = 0;
        List<Object> colors = new ArrayList<>();
        for (List<Object> r : run("values group by color show color, count(), sum(size)", m).rows()) {
            colors.add(r.get(0));
            count += (Long) r.get(1);
            size += (Long) r.get(2);
        }
        assertEquals(m.values().size(), count, where);
        assertEquals(colors.stream().sorted().toList(), colors, where + ": groups come out in key order");
        assertEquals(m.values().stream().mapToLong(HloValue::size).sum(), size, where);

        assertEquals(m.allocations().stream().filter(BufferAllocation::isTemp).count(),
                run("allocations where temp order by size desc", m).size(), where);
        long fusions = m.instructions().stream().filter(i -> "fusion".equals(i.opcode())).count();
        assertEquals(fusions, run("instructions where opcode = \"fusion\" show count()", m).cell(0, 0), where);

        Table named = run("values where name ~ \"fusion\" and size >= 4KiB show id, name, size, offset, allocation", m);
        for (List<Object> r : named.rows()) {
            assertTrue(((String) r.get(1)).contains("fusion") && (Long) r.get(2) >= 4096, where);
        }
    }
}
