package bufq.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An entity a query can start with ({@code values}, {@code allocations}, ...): its fields, the
 * columns shown by default, where its rows come from and how they are found by time; {@code readsUsedValues}
 * when its rows come from the Used values section (instructions print there).
 */
record Entity(String name, String doc, Map<String, FieldDef> fields, List<String> defaults, RowSource rows,
              LiveTest live, LiveIndex index, boolean readsUsedValues) {
    Entity(String name, String doc, Map<String, FieldDef> fields, List<String> defaults, RowSource rows,
           LiveTest live, LiveIndex index) {
        this(name, doc, fields, defaults, rows, live, index, false);
    }

    Entity with(FieldDef f) {
        Map<String, FieldDef> m = new LinkedHashMap<>(fields);
        m.put(f.info().name(), f);
        return new Entity(name, doc, Collections.unmodifiableMap(m), defaults, rows, live, index, readsUsedValues);
    }

    /** Lists the rows of an entity for one module. */
    interface RowSource {
        List<?> rows(EvalContext ctx);
    }

    /** Whether a row is live somewhere in {@code [from, to]}. */
    interface LiveTest {
        boolean overlaps(Object row, int from, int to, EvalContext ctx);
    }

    /** Rows live somewhere in {@code [from, to]} found through the interval index, in row order. */
    interface LiveIndex {
        List<?> candidates(int from, int to, EvalContext ctx);
    }
}
