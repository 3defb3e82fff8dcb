package bufq.analysis.advise;

import bufq.analysis.whatif.ShortestCondition;
import bufq.analysis.whatif.ReadableEdits;
import bufq.analysis.whatif.Edit;
import bufq.analysis.whatif.EditParser;
import bufq.dump.DumpLoader;
import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.Query;
import bufq.model.HloModule;
import bufq.model.HloValue;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What advise prints as a statement is a condition people read, not a list of value ids: each
 * selects exactly the values the rule's id list did (run here again through the query engine).
 */
class ReadableEditsTest {
    static Set<Long> ids(HloModule m, String condition) throws Exception {
        Set<Long> out = new TreeSet<>();
        for (Object r : Query.compile("values where " + condition, Catalog.standard()).select(new EvalContext(m, TilingModel.TPU)))
            out.add(((HloValue) r).id());
        return out;
    }

    @Test
    void aSelectionIsNamedByWhatItsValuesShare() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/transformer-2layer"))).get(0);
        for (String asked : List.of("category = \"residuals\" and live at peak", "op_name ~ \"/div\" and live at peak",
                "shape = \"f32[8,8,128,128]{3,2,1,0}\" and idle_at_peak", "category = \"weights\"")) {
            List<HloValue> vs = Query.compile("values where " + asked, Catalog.standard()).select(new EvalContext(m, TilingModel.TPU))
                    .stream().map(HloValue.class::cast).toList();
            assertTrue(vs.size() > 2, asked);
            String c = ShortestCondition.of(m, vs, Catalog.standard(), TilingModel.TPU);
            assertFalse(c.contains("id in ("), asked + " -> " + c);
            assertTrue(c.length() <= 120, c);
            assertEquals(ids(m, asked), ids(m, c), asked + " -> " + c);
        }
    }

    @Test
    void adviseWhatifsAreConditionsSelectingTheSameValues() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/transformer-2layer"))).get(0);
        Advisor.Plan plan = Advisor.plan(m, Rules.standard(), Catalog.standard(), TilingModel.TPU, name -> null);
        ReadableEdits readable = new ReadableEdits(m, Catalog.standard(), TilingModel.TPU);
        int checked = 0;
        for (Advisor.Measured x : plan.found()) {
            for (Edit edit : x.advice().edits()) {
                // two ids say themselves; more are named by what they share
                if (edit.where() == null || edit.where().ids() == null || edit.where().ids().size() < 3) continue;
                String shown = readable.render(edit);
                assertFalse(shown.contains("id in ("), edit.text() + " -> " + shown);
                Edit back = EditParser.parse(shown, Set.of()).edits().get(0);
                assertEquals(edit.getClass(), back.getClass(), shown);
                assertEquals(new TreeSet<>(edit.where().ids()), ids(m, back.where().condition()), shown);
                assertEquals(edit.written(back.where().condition()), shown);
                checked++;
            }
        }
        assertTrue(checked >= 3, "advise found id selections to rewrite: " + checked);
        List<Output> report = AdviceList.of(m, plan, null, readable).report();
        Table t = (Table) report.get(0);
        for (int r = 0; r < t.size(); r++) {
            String whatif = (String) t.cell(r, t.columns().indexOf(t.columns().stream().filter(c -> c.name().equals("whatif")).findFirst().orElseThrow()));
            assertTrue(whatif.length() <= 200, whatif);
        }
    }
}
