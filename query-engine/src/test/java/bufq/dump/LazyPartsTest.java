package bufq.dump;

import bufq.analysis.Analyses;
import bufq.analysis.BlameBy;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.FieldInfo;
import bufq.format.FormatOptions;
import bufq.format.Formatters;
import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.Output;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every corpus module loaded with its Used values section left for first use answers exactly as one
 * loaded whole: a digest of every field of every entity, and of every analysis's output. What the
 * catalog says needs no part is computed first and must not read the section.
 */
class LazyPartsTest {
    private static final Catalog CATALOG = Catalog.standard();

    @TestFactory
    Stream<DynamicTest> aLazyModuleAnswersAsAWholeOne() throws IOException {
        Path corpus = CorpusSweepTest.corpus();
        assumeTrue(Files.isDirectory(corpus), "corpus not found at " + corpus);
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
        return sources.stream().map(s -> DynamicTest.dynamicTest(corpus.relativize(Path.of(s.files().get(0)).toAbsolutePath().normalize()).toString(),
                () -> compare(s)));
    }

    static void compare(ModuleSource s) throws LoadException {
        HloModule whole = s.load(EnumSet.allOf(DumpPart.class));
        HloModule lazy = s.load();
        String where = s.files().get(0);
        assertTrue(whole.isRead(DumpPart.USED_VALUES), where);
        boolean deferred = whole.info().hasValueDetails();
        assertEquals(!deferred, lazy.isRead(DumpPart.USED_VALUES), where + ": a section to defer is deferred");

        // What needs no part, first: the section stays unread.
        Map<String, String> cheap = digests(whole, false), cheapLazy = digests(lazy, false);
        assertEquals(whole.instructions().size(), lazy.instructionCount(), where + ": instruction count without the section");
        assertEquals(cheap, cheapLazy, where);
        assertEquals(!deferred, lazy.isRead(DumpPart.USED_VALUES), where + ": fields that need no part read none");

        // Then everything, which reads it.
        assertEquals(digests(whole, true), digests(lazy, true), where);
        assertTrue(lazy.isRead(DumpPart.USED_VALUES), where);
        assertEquals(whole.instructionCount(), lazy.instructionCount(), where);
        assertEquals(whole.warnings(), lazy.warnings(), where);
        assertEquals(whole.warningCount(), lazy.warningCount(), where);
        assertEquals(whole.values(), lazy.values(), where);
        assertEquals(whole.instructions(), lazy.instructions(), where);
    }

    /** Field by field of every entity (only those that need no part, or all), and the analyses likewise. */
    private static Map<String, String> digests(HloModule m, boolean all) {
        Map<String, String> out = new LinkedHashMap<>();
        EvalContext ctx = new EvalContext(m, TilingModel.TPU);
        for (String entity : CATALOG.entities()) {
            if (!all && !CATALOG.needs(entity, null).isEmpty()) continue;
            List<?> rows = CATALOG.rows(entity, ctx);
            for (FieldInfo f : CATALOG.fields(entity)) {
                if (!all && !CATALOG.needs(entity, f.name()).isEmpty()) continue;
                StringBuilder b = new StringBuilder();
                for (Object row : rows) b.append(CATALOG.value(entity, f.name(), row, ctx)).append('\n');
                out.put(entity + "." + f.name(), sha(b.toString()));
            }
        }
        out.put("timeline", text(Analyses.timeline(m, OptionalInt.empty(), 80)));
        out.put("padding", text(Analyses.padding(m, TilingModel.TPU)));
        out.put("fragmentation", text(Analyses.fragmentation(m)));
        if (all) {
            out.put("peak", text(Analyses.peak(m, OptionalInt.empty(), Analyses.DEFAULT_SMALL_THRESHOLD, TilingModel.TPU)));
            for (BlameBy by : BlameBy.values()) out.put("blame " + by, text(Analyses.blame(m, by, 0)));
            out.put("check", sha(Analyses.check(m, TilingModel.TPU, List.of()).toString()));
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
