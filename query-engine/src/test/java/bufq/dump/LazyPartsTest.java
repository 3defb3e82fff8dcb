package bufq.dump;

import bufq.analysis.waste.Waste;
import bufq.analysis.blame.Blame;
import bufq.analysis.peak.Peak;
import bufq.analysis.timeline.Timeline;
import bufq.analysis.check.Checks;
import bufq.dump.file.FileKind;
import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.blame.BlameBy;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.FieldInfo;
import bufq.eval.Query;
import bufq.format.FormatOptions;
import bufq.format.Formatters;
import bufq.model.LoadOptions;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.PartReadException;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every corpus module loaded with its Used values section left for first use answers exactly as one
 * loaded whole: a digest of every field of every entity, and of every analysis's output. What the
 * catalog says needs no part is computed first and must not read the section.
 */
class LazyPartsTest {
    private static final Catalog CATALOG = Catalog.standard();

    /** The module of every {@code -buffer-assignment.txt} file under {@code corpus}, in path order (not empty). */
    static List<ModuleSource> everyBufferAssignment(Path corpus) throws IOException {
        List<ModuleSource> sources = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(corpus)) {
            for (Path p : walk.filter(f -> Files.isRegularFile(f) && FileKind.of(f.getFileName().toString()) == FileKind.BUFFER_ASSIGNMENT)
                    .sorted().toList()) {
                try {
                    sources.addAll(DumpLoader.discover(List.of(p)));
                } catch (LoadException e) {
                    throw new AssertionError(e.getMessage());
                }
            }
        }
        assertFalse(sources.isEmpty());
        return sources;
    }

    @TestFactory
    Stream<DynamicTest> aLazyModuleAnswersAsAWholeOne() throws IOException {
        Path corpus = Corpus.require(Corpus.dir());
        List<ModuleSource> sources = everyBufferAssignment(corpus);
        return sources.stream().map(s -> DynamicTest.dynamicTest(corpus.relativize(Path.of(s.files().get(0)).toAbsolutePath().normalize()).toString(),
                () -> compare(s)));
    }

    static void compare(ModuleSource s) throws LoadException {
        HloModule whole = s.load(LoadOptions.WHOLE);
        HloModule lazy = s.load();
        String where = s.files().get(0);
        assertTrue(whole.usedValues().isRead(), where);
        boolean deferred = whole.info().hasValueDetails();
        assertEquals(!deferred, lazy.usedValues().isRead(), where + ": a section to defer is deferred");

        // What needs no part, first: the section stays unread.
        Map<String, String> cheap = digests(whole, false), cheapLazy = digests(lazy, false);
        assertEquals(whole.instructions().size(), lazy.instructionCount(), where + ": instruction count without the section");
        assertEquals(cheap, cheapLazy, where);
        assertEquals(!deferred, lazy.usedValues().isRead(), where + ": fields that need no part read none");

        // Then everything, which reads it.
        assertEquals(digests(whole, true), digests(lazy, true), where);
        assertTrue(lazy.usedValues().isRead(), where);
        assertEquals(whole.instructionCount(), lazy.instructionCount(), where);
        assertEquals(whole.warnings(), lazy.warnings(), where);
        assertEquals(whole.warningCount(), lazy.warningCount(), where);
        assertEquals(whole.values(), lazy.values(), where);
        assertEquals(whole.instructions(), lazy.instructions(), where);
    }

    /** The four files of a corpus module, copied where a test may change them. */
    private static Path copy(Path dir) throws IOException {
        Path src = Corpus.require("jax-0.10.2/transformer-2layer");
        Path ba = null;
        try (Stream<Path> files = Files.list(src)) {
            for (Path f : files.toList()) {
                Path to = Files.copy(f, dir.resolve(f.getFileName()));
                if (FileKind.of(to.getFileName().toString()) == FileKind.BUFFER_ASSIGNMENT) ba = to;
            }
        }
        return ba;
    }

    @Test
    void concurrentFirstUsesShareOneRead(@TempDir Path dir) throws Exception {
        HloModule m = DumpLoader.load(List.of(copy(dir))).get(0);
        assertFalse(m.usedValues().isRead());
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<HloInstruction>>> got = new ArrayList<>();
            for (int i = 0; i < 4; i++) got.add(pool.submit(() -> { start.await(); return m.instructions(); }));
            start.countDown();
            List<HloInstruction> first = got.get(0).get();
            for (Future<List<HloInstruction>> f : got) assertSame(first, f.get());
        } finally {
            pool.shutdownNow();
        }
        assertTrue(m.usedValues().isRead());
    }

    @Test
    void aCancelledReadKeepsNothingAndTheNextUseReads(@TempDir Path dir) throws Exception {
        HloModule m = DumpLoader.load(List.of(copy(dir))).get(0);
        Thread.currentThread().interrupt();
        PartReadException.Unchecked e;
        try {
            e = assertThrows(PartReadException.Unchecked.class, () -> m.values().get(0).uses());
        } finally {
            Thread.interrupted();
        }
        assertTrue(e.getCause().cancelled(), e.getMessage());
        assertFalse(m.usedValues().isRead());
        assertFalse(m.instructions().isEmpty());
        assertTrue(m.usedValues().isRead());
    }

    @Test
    void aValuesFileChangedSinceTheLoadIsOneLine(@TempDir Path dir) throws Exception {
        Path ba = copy(dir);
        HloModule m = DumpLoader.load(List.of(ba)).get(0);
        Path values = dir.resolve(ba.getFileName().toString().replace("-buffer-assignment.txt", "-buffer-assignment-values.txt"));
        Files.writeString(values, "<1 x @0>\n", java.nio.file.StandardOpenOption.APPEND);
        PartReadException e = assertThrows(PartReadException.class, () -> m.usedValues().read());
        assertFalse(e.cancelled());
        assertEquals(values + ": changed since the module was loaded; load it again", e.getMessage());
        // What the load read still answers.
        assertTrue(Liveness.of(m).peakBytes() > 0);
    }

    @Test
    void aQuerySaysWhichPartsItNeeds() throws Exception {
        assertFalse(Query.compile("values where live at peak show count(), sum(size)", CATALOG).readsUsedValues());
        assertFalse(Query.compile("steps order by live_bytes desc limit 3", CATALOG).readsUsedValues());
        assertTrue(Query.compile("values where op_name ~ \"dot\" show count()", CATALOG).readsUsedValues());
        assertTrue(Query.compile("values group by opcode show opcode, count()", CATALOG).readsUsedValues());
        assertTrue(Query.compile("instructions show count()", CATALOG).readsUsedValues());
        assertTrue(Query.compile("steps show time, opcode", CATALOG).readsUsedValues());
    }

    /** Field by field of every entity (only those that need no part, or all), and the analyses likewise. */
    private static Map<String, String> digests(HloModule m, boolean all) {
        Map<String, String> out = new LinkedHashMap<>();
        EvalContext ctx = new EvalContext(m, TilingModel.TPU);
        for (String entity : CATALOG.entities()) {
            if (!all && CATALOG.readsUsedValues(entity, null)) continue;
            List<?> rows = CATALOG.rows(entity, ctx);
            for (FieldInfo f : CATALOG.fields(entity)) {
                if (!all && CATALOG.readsUsedValues(entity, f.name())) continue;
                StringBuilder b = new StringBuilder();
                for (Object row : rows) b.append(CATALOG.value(entity, f.name(), row, ctx)).append('\n');
                out.put(entity + "." + f.name(), sha(b.toString()));
            }
        }
        out.put("timeline", text(Timeline.chart(m, OptionalInt.empty(), 80)));
        out.put("padding", text(Waste.padding(m, TilingModel.TPU)));
        out.put("fragmentation", text(Waste.fragmentation(m)));
        if (all) {
            out.put("peak", text(Peak.report(m, OptionalInt.empty(), Peak.DEFAULT_SMALL_THRESHOLD, TilingModel.TPU)));
            for (BlameBy by : BlameBy.values()) out.put("blame " + by, text(Blame.atPeak(m, by, 0)));
            out.put("check", sha(Checks.check(m, TilingModel.TPU, List.of()).toString()));
        }
        return out;
    }

    private static String text(List<Output> outputs) {
        StringBuilder b = new StringBuilder();
        Formatters.writeAll(outputs, Formatters.byName("table"), FormatOptions.DEFAULT, b);
        return sha(b.toString());
    }

    private static String sha(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
