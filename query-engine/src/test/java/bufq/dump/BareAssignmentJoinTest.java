package bufq.dump;

import bufq.dump.file.ModuleSource;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A proto folder (text set, .hlo.pb and memory_analysis()'s bare ma-buffer-assignment.pb
 * of one program) loaded as two modules, jit_f and a nameless assignment-proto. The bare
 * assignment joins the one module beside it; alone, or beside several, it stays a module.
 */
class BareAssignmentJoinTest {
    @Test
    void aBareAssignmentBesideItsModuleJoinsIt() throws Exception {
        Path dir = Corpus.require("jax-0.10.2-proto/bf16-mlp");
        List<String> skipped = new ArrayList<>();
        List<ModuleSource> found = DumpLoader.discover(List.of(dir), skipped::add);
        assertEquals(1, found.size(), found.stream().map(ModuleSource::name).toList().toString());
        assertEquals("jit_f", found.get(0).name());
        assertEquals(List.of(), skipped, "joined silently, as a report .pb is: a batch run's stderr stays clean");
    }

    @Test
    void aBareAssignmentAloneOrAmongSeveralStaysAModule(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path src = Corpus.require("jax-0.10.2-proto/bf16-mlp").resolve("ma-buffer-assignment.pb");
        Path alone = Files.createDirectories(tmp.resolve("alone"));
        Files.copy(src, alone.resolve("ma-buffer-assignment.pb"));
        assertEquals(1, DumpLoader.discover(List.of(alone)).size());
        Path two = Files.createDirectories(tmp.resolve("two"));
        Files.copy(src, two.resolve("ma-buffer-assignment.pb"));
        for (String d : List.of("bf16-mlp", "cnn")) {
            try (var s = Files.list(Corpus.require("jax-0.10.2-proto/" + d))) {
                for (Path f : s.filter(f -> f.getFileName().toString().endsWith(".hlo.pb")).toList())
                    Files.copy(f, two.resolve(f.getFileName()));
            }
        }
        assertEquals(3, DumpLoader.discover(List.of(two)).size(), "the assignment cannot say which of two modules it belongs to");
    }
}
