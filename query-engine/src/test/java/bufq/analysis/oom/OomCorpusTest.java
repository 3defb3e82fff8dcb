package bufq.analysis.oom;

import bufq.dump.DumpLoader;
import bufq.format.FormatOptions;
import bufq.format.Formatters;
import bufq.model.HloModule;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two real XLA:CPU out-of-memory errors of the corpus's oom-cpu folder, each with the dump of its
 * run: the join names the module and allocation the corpus README names. The pair case also runs
 * on a bare clone from the copy in test resources.
 */
class OomCorpusTest {
    static final Path FIXTURE = Path.of("src/test/resources/fixtures/oom-cpu/pair");

    /** The top candidate's handle and allocation index of message 1, from the report's second table. */
    static String joined(List<Output> out) {
        Table t = (Table) out.get(1);
        assertTrue(t.size() > 0, "a row per candidate");
        return t.cell(0, t.columnIndex("module")) + " allocation " + t.cell(0, t.columnIndex("allocation"));
    }

    static List<Output> report(Path dir) throws Exception {
        OomText text = OomReader.read(Files.readAllBytes(dir.resolve("run.log")));
        return OomReport.run(text, load(dir.resolve("dump")));
    }

    /** The modules of a dump directory, each under the handle the shell gives it when names repeat. */
    static List<HloModule> load(Path dir) throws Exception {
        return DumpLoader.load(List.of(dir)).stream()
                .map(m -> m.withHandle(String.format("module_%04d.%s", m.info().number(), m.info().name()))).toList();
    }

    @Test
    void distancesJoinsToModule4Allocation18() throws Exception {
        List<Output> out = report(Corpus.require("oom-cpu/distances"));
        assertEquals("module_0004.jit__lambda allocation 18", joined(out));
        Table mods = (Table) out.get(1);
        assertEquals(1, mods.size(), "one module has an allocation of 500000000000 bytes");
        assertEquals("temp", mods.cell(0, mods.columnIndex("kind")));
    }

    @Test
    void pairJoinsToModule8Allocation15() throws Exception {
        List<Output> out = report(Corpus.require("oom-cpu/pair"));
        assertEquals("module_0008.jit__lambda allocation 15", joined(out));
        Table mods = (Table) out.get(1);
        assertEquals("use module_0008.jit__lambda", mods.cell(0, mods.columnIndex("next")));
        assertEquals("map 15", mods.cell(0, mods.columnIndex("then")));
    }

    @Test
    void pairFromTheRepoFixture() throws Exception {
        List<Output> out = report(FIXTURE);
        assertEquals("module_0008.jit__lambda allocation 15", joined(out));
        Table msgs = (Table) out.get(0);
        assertEquals("xla-cpu", msgs.cell(0, msgs.columnIndex("family")));
        assertEquals(4608000000L, msgs.cell(0, msgs.columnIndex("requested_bytes")));
        Table figures = (Table) out.get(out.size() - 1);
        assertEquals("equal", figures.cell(0, figures.columnIndex("why")));
        StringBuilder s = new StringBuilder();
        Formatters.writeAll(out, Formatters.byName("markdown"), FormatOptions.DEFAULT, s);
        assertTrue(s.toString().contains("| 1 | 1 | module_0008.jit\\_\\_lambda | module_0008.jit\\_\\_lambda | 15 | temp |"), s.toString());
    }
}
