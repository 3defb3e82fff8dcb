package bufq.analysis.fit;

import bufq.analysis.category.Categories;
import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.table.Table;
import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code fit}'s held arrays say what each is in its program: a parameter's category, new state, a result. */
class HeldCategoryTest {
    /** The oom-cpu pair (committed): every program maps an input to a new array, so inputs and results. */
    @Test
    void thePairHoldsInputsAndResults() throws Exception {
        List<Program> ps = FitTest.pair();
        FitReport r = FitReport.of(ps, new Capacity(FitTest.LIMIT, FitTest.RESERVED, "ulimit -v"), Keep.ALL, "");
        Table held = r.held();
        int array = held.columnIndex("array"), category = held.columnIndex("category"), role = held.columnIndex("role");
        Map<String, String> byArray = new HashMap<>();
        for (int i = 0; i < held.size(); i++) {
            byArray.put((String) held.cell(i, array), (String) held.cell(i, category));
            String expected = ((String) held.cell(i, role)).startsWith("parameter") ? "inputs" : "outputs: result";
            assertEquals(expected, held.cell(i, category), held.cell(i, array) + " in " + held);
        }
        assertEquals("outputs: result", byArray.get("jit__lambda:0"), held.toString());   // the 1 GiB array that was held
        // its parameter is the broadcast's output, held already: not a second array
        assertFalse(byArray.containsKey("jit__lambda:1"), held.toString());
        assertEquals("inputs", byArray.get("jit_convert_element_type:1"), held.toString());
    }

    /**
     * The named Adam step (committed copy): its donated parameters are new state of their category,
     * whose bytes add up to the weights and optimizer bytes of the program's arguments by value.
     */
    @Test
    void anAdamStepsDonatedParametersAreNewState() throws Exception {
        HloModule m = DumpLoader.load(List.of(Corpus.require("jax-0.10.2/train/mlp-adam"))).get(0);
        Program p = Program.of(m);
        Map<String, Long> bytes = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        for (HeldArray a : p.arrays()) {
            bytes.merge(a.category(), a.bytes(), Long::sum);
            count.merge(a.category(), 1, Integer::sum);
            if (a.isParameter() && a.isOutput()) assertTrue(a.category().endsWith(", new state"), a.toString());
        }
        Map<String, Long> args = Categories.of(m).parameterBytes(m);
        assertEquals(args.get("weights"), bytes.get("weights, new state"), bytes.toString());
        assertEquals(args.get("optimizer"), bytes.get("optimizer, new state"), bytes.toString());
        assertEquals(8, count.get("weights, new state"), count.toString());   // w and b of 4 layers
        assertEquals(17, count.get("optimizer, new state"), count.toString());   // mu and nu of each, and the count
        assertEquals(1, count.get("inputs"), count.toString());   // the batch, not donated
    }
}
