package bufq.dump;

import bufq.dump.file.LoadException;
import bufq.dump.file.ModuleSource;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A directory loads every file that loads when named, says which files it skipped and why, and
 * lists its modules in natural path order; a tagged copy ({@code -buffer-assignment.PREFIX.txt})
 * is named after its program and joins its own siblings.
 */
class DirectoryScanTest {
    private static final String MLP = "module_0012.jit_mlp.cpu_after_optimizations";

    /** The four files of the jax010-mlp fixture, copied into {@code dir} with {@code .TAG} before {@code .txt}. */
    private static void copyTagged(Path dir, String tag) throws Exception {
        try (Stream<Path> files = Files.list(Fixtures.path("jax010-mlp"))) {
            for (Path f : files.toList()) {
                String n = f.getFileName().toString();
                Files.copy(f, dir.resolve(n.substring(0, n.length() - 4) + "." + tag + ".txt"));
            }
        }
    }

    @Test
    void everyFileThatLoadsWhenNamedLoadsFromItsDirectory(@TempDir Path dir) throws Exception {
        Path report = Fixtures.path("late2025/module_0007.jit__unstack.cpu_after_optimizations-memory-usage-report.txt");
        Files.copy(report, dir.resolve("module_0007.jit__unstack.cpu_after_optimizations-memory-usage-report.PREFIX.txt"));
        Files.copy(Fixtures.path("framed-stdout.log"), dir.resolve("run.log"));
        Files.copy(Fixtures.path("loose/collected-run-7.txt"), dir.resolve("collected-run-7.txt"));
        Files.writeString(dir.resolve("notes.txt"), "what I tried today\n");
        Files.copy(Fixtures.path("loose/module_0001.jit_f.before_optimizations.txt"), dir.resolve("module_0001.jit_f.before_optimizations.txt"));

        List<String> skipped = new ArrayList<>();
        List<ModuleSource> s = DumpLoader.discover(List.of(dir), skipped::add);
        List<String> names = s.stream().map(ModuleSource::name).toList();
        // The report (its program name, not its file stem), the renamed dump, the log's two frames.
        assertEquals(List.of("collected-run-7", "jit__unstack", "jit_neg", "jit_id"), names);
        for (ModuleSource m : s) assertTrue(m.load().totalBytes() > 0, m.name());
        assertEquals(1, skipped.size(), skipped.toString());
        String line = skipped.get(0);
        // XLA's own HLO text beside the dumps is passed over without a word; the user's notes are named.
        assertEquals(dir + ": skipped 1 file: notes.txt (not a buffer-assignment dump)", line);
    }

    /** A real --xla_dump_to directory holds HLO text, LLVM IR, objects and debug options beside each module. */
    @Test
    void xlasOtherDumpFilesArePassedOverSilently(@TempDir Path dir) throws Exception {
        Files.copy(Fixtures.path("loose/collected-run-7.txt"), dir.resolve("collected-run-7.txt"));
        Files.copy(Fixtures.path("loose/module_0001.jit_f.before_optimizations.txt"), dir.resolve("module_0001.jit_f.before_optimizations.txt"));
        Files.writeString(dir.resolve("module_0001.jit_f.ir-with-opt.ll"), "; ModuleID = 'x'\n");
        Files.write(dir.resolve("module_0001.jit_f.obj-file.kernel_module.o"), new byte[] {0x7f, 'E', 'L', 'F', 0, 0});
        Files.writeString(dir.resolve("module_0001.jit_f.debug_options"), "xla_dump_to: \"dump\"\n");
        List<String> skipped = new ArrayList<>();
        assertEquals(1, DumpLoader.discover(List.of(dir), skipped::add).size());
        assertEquals(List.of(), skipped);
        // Without a dump among them, the error says what the directory holds.
        Files.delete(dir.resolve("collected-run-7.txt"));
        LoadException e = org.junit.jupiter.api.Assertions.assertThrows(LoadException.class, () -> DumpLoader.discover(List.of(dir)));
        assertEquals(dir + ": no buffer-assignment dumps in " + dir + "; 4 of XLA's other dump files (HLO text, LLVM IR, objects) passed over",
                e.getMessage());
    }

    @Test
    void aDirectoryWithNothingToLoadSaysWhatItSkipped(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "what I tried today\n");
        LoadException e = org.junit.jupiter.api.Assertions.assertThrows(LoadException.class, () -> DumpLoader.discover(List.of(dir)));
        assertEquals(dir + ": no buffer-assignment dumps in " + dir + "; skipped 1 file: notes.txt (not a buffer-assignment dump)",
                e.getMessage());
    }

    @Test
    void aDirectoryNamedTwiceLoadsItsModulesOnce(@TempDir Path dir) throws Exception {
        Files.copy(Fixtures.path("loose/collected-run-7.txt"), dir.resolve("collected-run-7.txt"));
        assertEquals(1, DumpLoader.discover(List.of(dir, dir)).size());
    }

    @Test
    void aLongListOfSkippedFilesIsOneLineNamingTheFirstFew(@TempDir Path dir) throws Exception {
        Files.copy(Fixtures.path("loose/collected-run-7.txt"), dir.resolve("collected-run-7.txt"));
        for (int i = 1; i <= 5; i++) Files.writeString(dir.resolve("notes" + i + ".txt"), "notes\n");
        List<String> skipped = new ArrayList<>();
        DumpLoader.discover(List.of(dir), skipped::add);
        assertEquals(List.of(dir + ": skipped 5 files: notes1.txt (not a buffer-assignment dump), "
                + "notes2.txt (not a buffer-assignment dump), notes3.txt (not a buffer-assignment dump) and 2 more"), skipped);
    }

    @Test
    void aTaggedCopyIsNamedAfterItsProgramAndJoinsItsSiblings(@TempDir Path dir) throws Exception {
        copyTagged(dir, "PREFIX");
        List<ModuleSource> named = DumpLoader.discover(List.of(dir.resolve(MLP + "-buffer-assignment.PREFIX.txt")));
        assertEquals(1, named.size());
        assertEquals("jit_mlp", named.get(0).name());
        assertEquals(4, named.get(0).files().size(), named.get(0).files().toString());
        HloModule m = named.get(0).load();
        assertEquals(0, m.warningCount(), () -> m.warnings().toString());
        // The live ranges come from the joined live-range file: a peak as the untagged set has.
        HloModule untagged = DumpLoader.load(List.of(Fixtures.path("jax010-mlp"))).get(0);
        assertEquals(Liveness.of(untagged).peakTime(), Liveness.of(m).peakTime());
        assertEquals(untagged.instructions().size(), m.instructions().size());
    }

    @Test
    void aTaggedSetAndTheUntaggedOneBesideItAreTwoModules(@TempDir Path dir) throws Exception {
        copyTagged(dir, "PREFIX");
        try (Stream<Path> files = Files.list(Fixtures.path("jax010-mlp"))) {
            for (Path f : files.toList()) Files.copy(f, dir.resolve(f.getFileName()));
        }
        List<ModuleSource> s = DumpLoader.discover(List.of(dir));
        assertEquals(2, s.size(), s.toString());
        for (ModuleSource m : s) {
            assertEquals("jit_mlp", m.name());
            assertEquals(4, m.files().size(), m.files().toString());
        }
    }

    @Test
    void aDirectoryIsReadInNaturalPathOrder(@TempDir Path dir) throws Exception {
        // As the corpus's jax-0.10.2/pairs: the base before its -again and -remat copies, so
        // `diff 1 2` compares forwards; module_2 before module_10.
        Path one = Fixtures.path("late2025/module_0007.jit__unstack.cpu_after_optimizations-buffer-assignment.txt");
        for (String sub : List.of("transformer-4layer-remat", "transformer-4layer", "transformer-4layer-again")) {
            Files.createDirectories(dir.resolve(sub));
            Files.copy(one, dir.resolve(sub).resolve(one.getFileName()));
        }
        for (String n : List.of("module_10.jit_b-buffer-assignment.txt", "module_2.jit_a-buffer-assignment.txt")) {
            Files.copy(one, dir.resolve(n));
        }
        List<String> order = DumpLoader.discover(List.of(dir)).stream()
                .map(m -> dir.relativize(Path.of(m.files().get(0))).toString()).toList();
        assertEquals(List.of("module_2.jit_a-buffer-assignment.txt", "module_10.jit_b-buffer-assignment.txt",
                "transformer-4layer/" + one.getFileName(), "transformer-4layer-again/" + one.getFileName(),
                "transformer-4layer-remat/" + one.getFileName()), order);
    }
}
