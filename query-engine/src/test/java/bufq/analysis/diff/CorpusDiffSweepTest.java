package bufq.analysis.diff;

import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.analysis.diff.DiffResult.GroupChange;
import bufq.analysis.diff.DiffResult.Unmatched;
import bufq.analysis.diff.DiffResult.Where;
import bufq.dump.DumpLoader;
import bufq.model.HloInstruction;
import bufq.model.HloModule;
import bufq.model.HloModuleBuilder;
import bufq.model.HloValue;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every module of the corpus, every era: diffed against a copy with every instruction renamed it
 * is identical (nothing may depend on names), and diffed against its neighbour the parts add up.
 */
class CorpusDiffSweepTest {
    private static final Path CORPUS = Corpus.dir();

    @TestFactory
    Stream<DynamicTest> everyModuleDiffsCleanly() throws Exception {
        Corpus.require(CORPUS);
        List<HloModule> modules = DumpLoader.load(List.of(CORPUS));
        assertTrue(modules.size() > 10, "corpus holds " + modules.size() + " modules");
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < modules.size(); i++) {
            HloModule m = modules.get(i), next = modules.get((i + 1) % modules.size());
            String name = CORPUS.relativize(Path.of(m.info().files().get(0))).toString();
            tests.add(DynamicTest.dynamicTest(name, () -> check(m, next)));
        }
        return tests.stream();
    }

    private static void check(HloModule m, HloModule other) {
        for (boolean atPeak : new boolean[] {false, true}) {
            DiffOptions o = new DiffOptions(atPeak, -1);
            DiffResult same = ModuleDiff.compare(m, renamed(m), o);
            assertTrue(same.identical(), () -> "renamed copy differs: " + same);
            DiffResult r = ModuleDiff.compare(m, other, o);
            addsUp(r, m, other);
            List<Output> parts = DiffTables.render(r);
            assertEquals(r.shardings().isEmpty() ? 6 : 7, parts.size(), "six tables, and the sharding changes where there are some");
            // By category, each side's rows are its peak's occupied bytes, each byte once.
            long before = 0, after = 0;
            for (GroupChange g : r.byCategory()) { before += g.before(); after += g.after(); }
            assertEquals(Liveness.of(m).peakTime() < 0 ? 0 : Liveness.of(m).peakBytes(), before, "categories before");
            assertEquals(Liveness.of(other).peakTime() < 0 ? 0 : Liveness.of(other).peakBytes(), after, "categories after");
            for (Output p : parts) assertFalse(((Table) p).title().isEmpty());
        }
    }

    /** Groups partition the values live at peak (logical bytes); leftovers explain the difference of byte totals. */
    private static void addsUp(DiffResult r, HloModule before, HloModule after) {
        long pb = sum(live(before)), pa = sum(live(after));
        assertEquals(pa - pb, r.byOpName().stream().mapToLong(GroupChange::change).sum(), "op_name groups");
        if (r.hasSources()) assertEquals(pa - pb, r.bySource().stream().mapToLong(GroupChange::change).sum(), "source groups");
        else assertTrue(r.bySource().isEmpty());
        List<HloValue> vb = r.options().atPeak() ? live(before) : before.values();
        List<HloValue> va = r.options().atPeak() ? live(after) : after.values();
        long only = 0;
        for (Unmatched u : r.unmatched()) only += u.where() == Where.AFTER ? u.bytes() : -u.bytes();
        assertEquals(sum(va) - sum(vb), only, "unmatched bytes");
    }

    private static List<HloValue> live(HloModule m) {
        return Liveness.of(m).peakTime() < 0 ? List.of() : LiveValues.at(m, Liveness.of(m).peakTime());
    }

    private static long sum(List<HloValue> vs) {
        return vs.stream().mapToLong(HloValue::logicalSize).sum();
    }

    /** The same module with every instruction and value renamed, as a second compilation would. */
    static HloModule renamed(HloModule m) {
        List<HloValue> values = new ArrayList<>();
        for (HloValue v : m.values())
            values.add(new HloValue(v.id(), v.name() + "_x", v.index(), v.indexPrinted(), v.phi(), v.color(), v.size(),
                    v.offset(), v.allocation(), v.shape(), List.of(), List.of(), v.range()));
        List<HloInstruction> ins = new ArrayList<>();
        for (HloInstruction i : m.instructions())
            ins.add(new HloInstruction(i.name() + "_x", i.time(), i.shape(), i.opcode(), i.operands(), i.opName(),
                    i.sourceFile(), i.sourceLine(), i.attributes()));
        List<String> seq = m.sequence().stream().map(s -> s + "_x").toList();
        return new HloModuleBuilder(m.info()).allocations(m.allocations()).values(values).instructions(ins).sequence(seq)
                .warnings(m.warnings()).build();
    }
}
