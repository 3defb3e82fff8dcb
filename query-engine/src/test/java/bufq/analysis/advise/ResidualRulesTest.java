package bufq.analysis.advise;

import bufq.analysis.category.Categories;
import bufq.eval.Catalog;
import bufq.analysis.liveness.Liveness;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.table.Table;
import bufq.analysis.whatif.EditParser;
import bufq.analysis.whatif.EditSweep;
import bufq.analysis.whatif.Outcome;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The advice that helps where remat does not: offloading the residuals and a remat policy, on the
 * corpus's remat pairs and the named Adam step (transformer-4layer and mlp-adam are copied into the
 * checkout). Each row's whatif line runs and reproduces its saving, which never exceeds the
 * residuals' bytes at the peak ({@code blame by category}'s row).
 */
class ResidualRulesTest {
    /** Module, and the rules it must report. */
    static final List<String[]> EXPECTED = List.of(
            new String[] {"jax-0.10.2/pairs/transformer-4layer", "offload", "remat-policy"},
            new String[] {"jax-0.10.2/remat-pairs/attention-2layer", "offload", "remat-policy"},
            new String[] {"jax-0.10.2/train/mlp-adam", "offload"});

    @TestFactory
    Stream<DynamicTest> residualAdviceIsMeasuredAndBounded() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] e : EXPECTED) tests.add(DynamicTest.dynamicTest(e[0], () -> check(AdvisorTest.load(e[0]), List.of(e).subList(1, e.length))));
        return tests.stream();
    }

    static void check(HloModule m, List<String> rules) throws Exception {
        List<Advisor.Measured> found = Advisor.run(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, n -> null);
        Liveness l = Liveness.of(m);
        long residuals = Categories.bytesAt(m, null, l.peakTime()).getOrDefault("residuals", 0L);
        assertTrue(residuals > 0, m.handle() + " holds residuals at its peak");
        Table ranked = (Table) AdviceList.of(m, found).report().get(0);
        for (String rule : rules) {
            List<Advisor.Measured> rows = found.stream().filter(x -> x.advice().rule().equals(rule)).toList();
            assertEquals(1, rows.size(), m.handle() + " reports " + rule + " once: " + found);
            Advisor.Measured x = rows.get(0);
            Advice a = x.advice();
            for (HloValue v : a.values()) assertEquals("residuals", Categories.of(m).of(m, v), a.finding());
            // The printed statement, run as it is, gives the saving, bounded by the residuals at the peak.
            int row = row(ranked, rule);
            String line = (String) ranked.cell(row, ranked.columnIndex("whatif"));
            var edits = EditParser.parse(line.substring("whatif ".length()), Set.copyOf(Catalog.standard().entities())).edits();
            Outcome o = EditSweep.run(m, edits, Catalog.standard(), TilingModel.TPU, n -> null);
            assertEquals(x.saves(), o.saved(), line);
            assertEquals(o.saved(), ((Number) ranked.cell(row, ranked.columnIndex("whatif_saves"))).longValue(), line);
            assertTrue(o.saved() > 0 && o.saved() <= residuals, m.handle() + ": " + rule + " saves " + o.saved()
                    + ", more than the " + residuals + " B of residuals at the peak");
            // The peak the offload leaves is at least the peak without the residuals at its step.
            assertTrue(o.after().occupiedBytes(l.peakTime()) >= l.peakBytes() - residuals, line);
            long shown = ((Number) ranked.cell(row, ranked.columnIndex("saves"))).longValue();
            String figure = (String) ranked.cell(row, ranked.columnIndex("figure"));
            if (rule.equals("offload")) {
                assertEquals("upper bound: whatif", figure, line);
                // on XLA:CPU the device is the host: an offload frees none of it, so none is promised
                assertEquals("cpu".equals(m.info().backend()) ? 0 : o.saved(), shown, line);
                assertTrue(a.finding().contains("pinned_host") && a.finding().contains("at most"), a.finding());
            } else {
                // a remat policy is a recompilation: on XLA:CPU its recomputations are scheduled together
                assertEquals("estimate: recompilation", figure, line);
                assertEquals("cpu".equals(m.info().backend()) ? 0 : o.saved(), shown, line);
                for (HloValue v : a.values()) assertFalse(RematPolicyRule.isDot(new Facts(m).opName(v)), "dots are kept: " + v.label());
            }
        }
    }

    private static int row(Table t, String rule) {
        int c = t.columnIndex("change");
        for (int r = 0; r < t.size(); r++) if (rule.equals(t.cell(r, c))) return r;
        throw new AssertionError(rule + " not in the report");
    }
}
