package bufq.eval;

import bufq.analysis.category.CategoryRules;
import bufq.lang.Lexer;
import bufq.table.ColumnType;
import bufq.table.Table;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The entities a query can start with and their fields. Immutable: {@link #withField} returns a new
 * catalog, so a compiled query keeps the fields it was checked against.
 */
public final class Catalog {
    private final Map<String, Entity> entities;
    private final CategoryRules categories;

    Catalog(Map<String, Entity> entities) { this(entities, CategoryRules.NONE); }

    private Catalog(Map<String, Entity> entities, CategoryRules categories) {
        this.entities = Collections.unmodifiableMap(new LinkedHashMap<>(entities));
        this.categories = categories;
    }

    /** The user's category rules the {@code category} fields follow ({@link CategoryRules#NONE}: the built-in ones). */
    public CategoryRules categories() { return categories; }

    /**
     * This catalog with the {@code category} fields of values and uses following {@code rules}
     * (then the built-in rules), as {@code set category} makes it.
     */
    public Catalog withCategories(CategoryRules rules) {
        CategoryRules r = rules == null ? CategoryRules.NONE : rules;
        Map<String, Entity> m = new LinkedHashMap<>(entities);
        m.put("values", withGetter(m.get("values"), StandardFields.valueCategory(r)));
        m.put("uses", withGetter(m.get("uses"), StandardFields.useCategory(r)));
        return new Catalog(m, r);
    }

    private static Entity withGetter(Entity e, Getter g) {
        FieldDef f = e.fields().get("category");
        return e.with(new FieldDef(f.info(), g, f.readsUsedValues()));
    }

    /** values, allocations, instructions and steps with their fields. */
    public static Catalog standard() { return Standard.CATALOG; }

    /** Built on the first {@link #standard()}, once. */
    private static final class Standard {
        static final Catalog CATALOG = standardCatalog();

        private static Catalog standardCatalog() {
            Map<String, Entity> m = StandardFields.entities();
            if (!List.copyOf(m.keySet()).equals(STANDARD_ENTITIES))
                throw new IllegalStateException("Catalog.STANDARD_ENTITIES differ: " + m.keySet());
            return new Catalog(m);
        }
    }

    /** The entities of {@link #standard()}, in its order; scripts add fields, never entities. */
    static final List<String> STANDARD_ENTITIES = List.of("values", "allocations", "instructions", "steps", "uses", "events", "modules");

    /**
     * {@link #standard()}'s entities without making it (what tells a query from a command): making
     * it links its fields' hundred-odd getter lambdas, half of the CPU of a run of {@code -c set}
     * beyond the JVM's start, which a run that compiles no query does not need.
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
        m.put(entity, e.with(new FieldDef(new FieldInfo(name, type, doc == null ? "" : doc), g, true)));
        return new Catalog(m, categories);
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
        Table.Builder b = Table.builder().key("fields")
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
     * Whether reading {@code field} of {@code entity} (or listing the entity's rows, when
     * {@code field} is null) reads the Used values section; false for unknown names. A compiled
     * query asks each of its fields ({@link Query#readsUsedValues()}) so the section is read before
     * the query runs.
     */
    public boolean readsUsedValues(String entity, String field) {
        Entity e = entities.get(entity);
        if (e == null) return false;
        if (field == null) return e.readsUsedValues();
        FieldDef f = e.fields().get(field);
        return f != null && f.readsUsedValues();
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
}
