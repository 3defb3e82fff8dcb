package bufq.eval;

import bufq.model.DumpPart;
import bufq.table.ColumnType;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** An entity's fields collected in declaration order (the order {@code fields of} lists them). */
final class FieldTable {
    final Map<String, FieldDef> map = new LinkedHashMap<>();

    /** A field whose getter reads only what every module holds. */
    FieldTable add(String name, ColumnType type, String doc, Getter g) {
        return add(name, type, doc, g, Set.of());
    }

    /** A field whose getter also reads the dump parts in {@code needs}. */
    FieldTable add(String name, ColumnType type, String doc, Getter g, Set<DumpPart> needs) {
        map.put(name, new FieldDef(new FieldInfo(name, type, doc), g, needs));
        return this;
    }

    Map<String, FieldDef> done() { return Collections.unmodifiableMap(map); }
}
