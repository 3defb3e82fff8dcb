package bufq.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bufq.dump.DumpLoader;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.table.NaturalOrder;
import bufq.table.Table;
import bufq.testing.Corpus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Strings order naturally in queries: {@code order by name} puts {@code fusion.2} before
 * {@code fusion.10}, as do {@code group by}, {@code min}/{@code max} and {@code <}/{@code >} on strings.
 * On a real module whose names end in numbers of several lengths.
 */
class NaturalOrderQueryTest {
    private static HloModule module() throws Exception {
        return DumpLoader.load(List.of(Corpus.require("jax-0.10.2/transformer-2layer"))).get(0);
    }

    private static List<String> column(HloModule m, String q) throws Exception {
        Table t = Query.compile(q, Catalog.standard()).run(new EvalContext(m, TilingModel.TPU));
        List<String> out = new ArrayList<>();
        for (List<Object> row : t.rows()) out.add((String) row.get(0));
        return out;
    }

    @Test
    void orderByNameIsNatural() throws Exception {
        HloModule m = module();
        List<String> names = column(m, "values order by name show name");
        List<String> natural = new ArrayList<>(names);
        natural.sort(NaturalOrder.INSTANCE);
        assertEquals(natural, names);
        List<String> plain = new ArrayList<>(names);
        plain.sort(Comparator.naturalOrder());
        assertNotEquals(plain, names, "the module has names where the two orders differ");
        List<String> desc = column(m, "values order by name desc show name");
        assertEquals(natural.get(natural.size() - 1), desc.get(0));

        List<String> groups = column(m, "values group by name show name");
        List<String> sortedGroups = new ArrayList<>(groups);
        sortedGroups.sort(NaturalOrder.INSTANCE);
        assertEquals(sortedGroups, groups, "group keys come out in the same order");
    }

    @Test
    void comparisonsAndMinMaxAgreeWithOrderBy() throws Exception {
        HloModule m = module();
        List<String> names = column(m, "values order by name show name");
        // a stem with a one-digit and a longer number: "fusion.9" < "fusion.10"
        String shortName = null, longName = null;
        for (String a : names) {
            if (!a.matches(".*\\.[0-9]")) continue;
            String stem = a.substring(0, a.lastIndexOf('.') + 1);
            for (String b : names) if (b.startsWith(stem) && b.substring(stem.length()).matches("[0-9]{2,}")) longName = b;
            if (longName != null) {
                shortName = a;
                break;
            }
        }
        assertTrue(shortName != null, "the module has NAME.N and NAME.NN");
        assertEquals(List.of(longName), column(m, "values where name > \"" + shortName + "\" and name = \"" + longName + "\" show name"));
        assertEquals(List.of(), column(m, "values where name < \"" + shortName + "\" and name = \"" + longName + "\" show name"));
        assertEquals(names.get(0), column(m, "values show min(name)").get(0));
        assertEquals(names.get(names.size() - 1), column(m, "values show max(name)").get(0));
    }
}
