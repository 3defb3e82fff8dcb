package bufq.eval;

import bufq.table.ColumnType;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** An entity's fields collected in declaration order (the order {@code fields of} lists them). */
final class FieldTable {
    final Map<String, FieldDef> map = new LinkedHashMap<>();

    /** A field whose getter reads only what every module holds. */
    FieldTable add(String name, ColumnType type, String doc, Getter g) {
        return add(name, type, doc, g, false);
    }

    /** A field whose getter reads the Used values section when {@code readsUsedValues}. */
    FieldTable add(String name, ColumnType type, String doc, Getter g, boolean readsUsedValues) {
        map.put(name, new FieldDef(new FieldInfo(name, type, doc), g, readsUsedValues));
        return this;
    }

    Map<String, FieldDef> done() { return Collections.unmodifiableMap(map); }
}
