package bufq.eval;

import bufq.lang.Lexer;
import bufq.model.DumpPart;
import bufq.table.ColumnType;
import bufq.table.Table;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The entities a query can start with and their fields. Immutable: {@link #withField} returns a new
 * catalog, so a compiled query keeps the fields it was checked against.
 */
public final class Catalog {
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

    /** A field and the dump parts its getter reads, besides those every module holds (see {@link #needs}). */
    record FieldDef(FieldInfo info, Getter getter, Set<DumpPart> needs) {
        FieldDef(FieldInfo info, Getter getter) { this(info, getter, Set.of()); }
    }

    /** An entity; {@code needs} are the parts its rows come from (instructions print in the Used values section). */
    record Entity(String name, String doc, Map<String, FieldDef> fields, List<String> defaults, RowSource rows,
                  LiveTest live, LiveIndex index, Set<DumpPart> needs) {
        Entity(String name, String doc, Map<String, FieldDef> fields, List<String> defaults, RowSource rows,
               LiveTest live, LiveIndex index) {
            this(name, doc, fields, defaults, rows, live, index, Set.of());
        }

        Entity with(FieldDef f) {
            Map<String, FieldDef> m = new LinkedHashMap<>(fields);
            m.put(f.info().name(), f);
            return new Entity(name, doc, Collections.unmodifiableMap(m), defaults, rows, live, index, needs);
        }
    }

    private final Map<String, Entity> entities;

    Catalog(Map<String, Entity> entities) {
        this.entities = Collections.unmodifiableMap(new LinkedHashMap<>(entities));
    }

    /** values, allocations, instructions and steps with the fields of issue 3 and a few extras. */
    public static Catalog standard() { return StandardFields.CATALOG; }

    /** The entities of {@link #standard()}, in its order; scripts add fields, never entities. */
    static final List<String> STANDARD_ENTITIES = List.of("values", "allocations", "instructions", "steps", "uses", "events", "modules");

    /**
     * {@link #standard()}'s entities without making it (what tells a query from a command): making
     * it links its fields' hundred-odd getter lambdas, half of the CPU of a run of {@code -c set}
     * beyond the JVM's start, which a run that compiles no query does not need (issue 34).
     */
    public static List<String> standardEntities() { return STANDARD_ENTITIES; }

    /**
     * A catalog with one more (or a replaced) field, e.g. from a script. {@code fn} gets the row
     * object and returns a value of {@code type} (Integer/Float etc. are widened; anything else is
     * null); an exception it throws fails the running query with a message naming the field.
     *
     * @throws IllegalArgumentException for an unknown entity or a name that is not a plain identifier
     */
    public Catalog withField(String entity, String name, ColumnType type, String doc, Function<Object, Object> fn) {
        Entity e = entities.get(entity);
        if (e == null) throw new IllegalArgumentException("unknown entity '" + entity + "'; expected one of " + entities());
        if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]*") || Lexer.KEYWORDS.contains(name.toLowerCase(Locale.ROOT)))
            throw new IllegalArgumentException("field name '" + name + "' must be an identifier and not a keyword");
        Getter g = new ScriptGetter(name, type, fn);
        Map<String, Entity> m = new LinkedHashMap<>(entities);
        // A script may read anything of the module: every part is read before a query that uses it runs.
        m.put(entity, e.with(new FieldDef(new FieldInfo(name, type, doc == null ? "" : doc), g, EnumSet.allOf(DumpPart.class))));
        return new Catalog(m);
    }

    /** Entity names in a stable order. */
    public List<String> entities() { return List.copyOf(entities.keySet()); }

    /** Fields of {@code entity} in a stable order; empty for an unknown entity. */
    public List<FieldInfo> fields(String entity) {
        Entity e = entities.get(entity);
        if (e == null) return List.of();
        List<FieldInfo> out = new ArrayList<>();
        for (FieldDef f : e.fields().values()) out.add(f.info());
        return out;
    }

    /** The fields of one entity (or of all when {@code entity} is null) as a table: entity, field, type, doc. */
    public Table fieldTable(String entity) {
        Table.Builder b = Table.builder()
                .column("entity", ColumnType.STRING).column("field", ColumnType.STRING)
                .column("type", ColumnType.STRING).column("doc", ColumnType.STRING);
        for (Entity e : entities.values()) {
            if (entity != null && !e.name().equals(entity)) continue;
            for (FieldDef f : e.fields().values()) {
                b.row(e.name(), f.info().name(), Conditions.typeName(f.info().type()), f.info().doc());
            }
        }
        return b.build();
    }

    /** One field, or null. */
    public FieldInfo field(String entity, String name) {
        FieldDef f = def(entity, name);
        return f == null ? null : f.info();
    }

    /** One-line description of an entity, or null. */
    public String doc(String entity) {
        Entity e = entities.get(entity);
        return e == null ? null : e.doc();
    }

    /**
     * The dump parts that reading {@code field} of {@code entity} (or listing the entity's rows, when
     * {@code field} is null) needs beyond what every loaded module holds; empty for unknown names. A
     * compiled query sums them ({@link Query#needs()}) so the part is read before the query runs.
     */
    public Set<DumpPart> needs(String entity, String field) {
        Entity e = entities.get(entity);
        if (e == null) return Set.of();
        if (field == null) return e.needs();
        FieldDef f = e.fields().get(field);
        return f == null ? Set.of() : f.needs();
    }

    /** The columns shown when a query has no {@code show}. */
    public List<String> defaultColumns(String entity) {
        Entity e = entities.get(entity);
        return e == null ? List.of() : e.defaults();
    }

    /** The row objects of {@code entity} in {@code ctx}'s module (what field functions receive). */
    public List<?> rows(String entity, EvalContext ctx) {
        Entity e = entities.get(entity);
        if (e == null) throw new IllegalArgumentException("unknown entity '" + entity + "'");
        return e.rows().rows(ctx);
    }

    /** The value of one field of one row, as a query would see it. */
    public Object value(String entity, String field, Object row, EvalContext ctx) {
        FieldDef f = def(entity, field);
        if (f == null) throw new IllegalArgumentException("unknown field '" + field + "' for " + entity);
        return f.getter().get(row, ctx);
    }

    /** The entity called {@code name}, in any case ({@code VALUES} is {@code values}); null when none. */
    Entity entity(String name) { return entities.get(name.toLowerCase(Locale.ROOT)); }

    FieldDef def(String entity, String name) {
        Entity e = entities.get(entity);
        return e == null ? null : e.fields().get(name);
    }

    /** Widens a script's result to the column type's Java type; null when it does not fit. */
    static Object coerce(Object v, ColumnType type) {
        if (v == null) return null;
        return switch (type) {
            // A double outside long's range would saturate (2^80 shown as 8.0EiB): it does not fit.
            case INT, BYTES -> v instanceof Number n && !(v instanceof Double d && !(d >= -0x1p63 && d < 0x1p63))
                    ? Long.valueOf(n.longValue()) : null;
            case FLOAT, PERCENT -> v instanceof Number n ? Double.valueOf(n.doubleValue()) : null;
            case STRING, NOTE -> v instanceof String || v instanceof Character ? v.toString() : null;
            case BOOL -> v instanceof Boolean ? v : null;
            case LIST -> v instanceof List<?> l ? List.copyOf(l.stream().map(x -> x == null ? "null" : x).toList()) : null;
        };
    }

    /**
     * The getter of a field a script added: it calls into the script, so a query reads it while it
     * runs (inside the script host's guarded call), never later when its table is printed.
     */
    static final class ScriptGetter implements Getter {
        private final String name;
        private final ColumnType type;
        private final Function<Object, Object> fn;

        ScriptGetter(String name, ColumnType type, Function<Object, Object> fn) {
            this.name = name;
            this.type = type;
            this.fn = fn;
        }

        @Override public Object get(Object row, EvalContext ctx) {
            Object v;
            try {
                v = fn.apply(row);
            } catch (RuntimeException ex) {
                throw new FieldFailure(name, ex);
            }
            return coerce(v, type);
        }
    }

    /** A script field threw; the query reports it by name. */
    static final class FieldFailure extends RuntimeException {
        final String field;

        FieldFailure(String field, RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
            this.field = field;
        }
    }
}
