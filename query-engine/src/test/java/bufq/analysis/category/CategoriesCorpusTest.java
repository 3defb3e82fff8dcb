package bufq.analysis.category;

import bufq.analysis.blame.Blame;
import bufq.analysis.blame.BlameBy;
import bufq.dump.DumpLoader;
import bufq.analysis.liveness.LiveValues;
import bufq.analysis.liveness.Liveness;
import bufq.model.BufferAllocation;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The categories on every corpus module: a partition of the occupied bytes, and paths that fold. */
class CategoriesCorpusTest {
    /** Every module of the sweep: the rows add up to the peak, exactly. */
    @TestFactory
    Stream<DynamicTest> categoriesAddUpToThePeakOnEveryModule() throws Exception {
        return Corpus.sweep((p, modules) -> check(modules));
    }

    static void check(List<HloModule> modules) {
        for (HloModule m : modules) {
            Liveness l = Liveness.of(m);
            Categories c = Categories.of(m);
            for (int i = 0; i < m.values().size(); i++) assertNotNull(c.name(i), m.handle() + " value " + i);
            int t = l.peakTime();
            if (t < 0) continue;
            long peak = l.occupiedBytes(t);
            long sum = 0;
            for (long b : Categories.bytesAt(m, CategoryRules.NONE, t).values()) sum += b;
            assertEquals(peak, sum, m.handle() + ": categories at the peak");
            Table table = (Table) Categories.blame(m, CategoryRules.NONE, t, "peak").get(0);
            long rows = 0;
            // the host row (values offloaded to host memory) is another memory space, outside the device's sum
            for (int r = 0; r < table.size(); r++) if (!CategoryReport.OFFLOADED.equals(table.cell(r, 0))) rows += (Long) table.cell(r, 1);
            assertEquals(peak, rows, m.handle() + ": rows of blame by category");
            Table paths = (Table) Categories.paths(m, CategoryRules.NONE, t, "peak", 0).get(0);
            long top = 0;
            for (int r = 0; r < paths.size(); r++) {
                long level = (Long) paths.cell(r, 0);
                if (level == 1) top += (Long) paths.cell(r, 3);
                // A row's children below it hold no more than it does: each row is the sum of its members.
                long children = 0;
                for (int k = r + 1; k < paths.size() && (Long) paths.cell(k, 0) > level; k++)
                    if ((Long) paths.cell(k, 0) == level + 1) children += (Long) paths.cell(k, 3);
                assertTrue(children <= (Long) paths.cell(r, 3), m.handle() + " " + paths.cell(r, 1));
            }
            assertEquals(peak, top, m.handle() + ": level-1 rows of blame by path");
            boolean backward = false;
            if (c.hasInstructions()) for (HloValue v : m.values()) {
                var ins = m.instruction(v.name());
                if (ins != null && ins.opName() != null && ins.opName().contains("transpose(")) { backward = true; break; }
            }
            // A module without a backward pass holds no residuals, gradients, cotangents, recomputed values or
            // optimizer state; a rematerialised value is never of the backward pass.
            Map<String, Long> at = Categories.bytesAt(m, CategoryRules.NONE, t);
            if (!backward) for (String none : List.of("residuals", "gradients", "cotangents", "recomputed", "optimizer"))
                assertEquals(0L, at.getOrDefault(none, 0L), m.handle() + ": " + none + " without a backward pass");
            for (int i = 0; i < m.values().size(); i++) {
                var ins = m.instruction(m.values().get(i).name());
                if (ins == null || ins.opName() == null || !ins.opName().contains("rematted_computation")) continue;
                String name = c.name(i);
                assertTrue(!name.equals("gradients") && !name.equals("cotangents"), m.handle() + ": " + m.values().get(i).label() + " is " + name);
            }
        }
    }

    /**
     * The step where the entry parameters hold the most: where the transformers hold their weights
     * (named {@code params[i]} in one, {@code ps[i]} in the others, which the built-in rules call
     * inputs: {@code ps} is no word for weights).
     */
    static int weightsStep(HloModule m) {
        int best = 0;
        long most = -1;
        // the step where the most bytes of entry parameters (weights and inputs, not XLA's copies of them) are live
        Categories c = Categories.of(m);
        for (int t = 0; t < m.steps(); t++) {
            long w = 0;
            for (int p : LiveValues.positions(m, t, t)) {
                String name = c.name(p);
                BufferAllocation a = m.allocation(m.values().get(p).allocation());
                if ((name.equals("weights") || name.equals("inputs")) && a != null && a.isParameter()) w += m.values().get(p).size();
            }
            if (w > most) { most = w; best = t; }
        }
        assertTrue(most > 0 && Categories.of(m).hasInstructions());
        return best;
    }

    /**
     * On the transformers, with their layers' weights live, {@code blame by path} has fewer than a
     * third of {@code blame by op_name}'s rows: one per weight matrix, not one per layer and matrix.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jax-0.10.2/transformer-12layer", "jax-0.10.2-proto/transformer-12layer", "jax-0.10.2/pairs/transformer-4layer"})
    void pathsFoldTheTransformersLayers(String dump) throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require(dump))).get(0);
        int t = weightsStep(m);
        Table byOp = (Table) Blame.at(m, BlameBy.OP_NAME, 0, 0, t).get(0);
        Table byPath = (Table) Categories.paths(m, CategoryRules.NONE, t, String.valueOf(t), 0).get(0);
        assertTrue(byPath.size() * 3 < byOp.size(), dump + " at step " + t + ": " + byPath.size() + " rows by path, " + byOp.size() + " by op_name");
        boolean folded = false;
        for (int r = 0; r < byPath.size(); r++) folded |= ((String) byPath.cell(r, 1)).contains("[*]") && (Long) byPath.cell(r, 2) > 1;
        assertTrue(folded, "a row folds layers");
    }
}
