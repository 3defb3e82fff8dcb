package bufq.shell.sql;

import bufq.eval.Catalog;
import bufq.eval.FieldInfo;
import bufq.table.ColumnType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The tables bufq writes: one per entity of the standard catalog ({@code modules}, {@code values},
 * {@code allocations}, ...; an entity added to the catalog becomes a table with no change here), each
 * row led by the keys that join across runs. The standard catalog, not the session's: a script's
 * fields would give each machine a schema of its own, and a fleet's files must union.
 */
final class Schema {
    private Schema() {}

    /** A column: its name, its DuckDB type, bufq's type, and the catalog field it holds (null for a key). */
    record Column(String name, String sqlType, ColumnType type, String field) {}

    /** A table: the entity it lists and its columns, keys first. */
    record TableDef(String name, List<Column> columns) {
        /** {@code CREATE TABLE} of this table in {@code database} (null: the connection's own), {@code lead} columns before the keys. */
        String create(String database, List<Column> lead, boolean ifNotExists) {
            StringBuilder b = new StringBuilder("CREATE TABLE ").append(ifNotExists ? "IF NOT EXISTS " : "")
                    .append(database == null ? "" : database + ".").append(quote(name)).append(" (");
            List<Column> all = new ArrayList<>(lead);
            all.addAll(columns);
            for (int i = 0; i < all.size(); i++) {
                if (i > 0) b.append(", ");
                b.append(quote(all.get(i).name())).append(' ').append(all.get(i).sqlType());
            }
            return b.append(')').toString();
        }
    }

    /**
     * The keys every row starts with: where the module was read ({@code dump}: the folder of its
     * first file; {@code file}), the session's handle, the module (the program: its name, with XLA's number after it
     * where two programs of one dump share a name, {@code jit__normal#0010}, so {@code group by module}
     * never merges them), the plain program name ({@code program}) and XLA's module number, a
     * fingerprint of the module's files (equal for the same compilation in two runs), the backend, and
     * the JAX and jaxlib versions where the dump records them (a profile capture does; null otherwise).
     */
    static final List<Column> KEYS = List.of(
            new Column("dump", "VARCHAR", ColumnType.STRING, null),
            new Column("handle", "VARCHAR", ColumnType.STRING, null),
            new Column("module", "VARCHAR", ColumnType.STRING, null),
            new Column("program", "VARCHAR", ColumnType.STRING, null),
            new Column("module_id", "VARCHAR", ColumnType.STRING, null),
            new Column("fingerprint", "VARCHAR", ColumnType.STRING, null),
            new Column("backend", "VARCHAR", ColumnType.STRING, null),
            new Column("jax_version", "VARCHAR", ColumnType.STRING, null),
            new Column("jaxlib_version", "VARCHAR", ColumnType.STRING, null));

    /** What a database's rows also carry: the export ({@code runs.run_id}) they came with. */
    static final Column RUN_ID = new Column("run_id", "BIGINT", ColumnType.INT, null);

    /** The {@code runs} table: one row per export. */
    static final String RUNS = "CREATE TABLE IF NOT EXISTS runs (run_id BIGINT, exported_at TIMESTAMP, bufq_version VARCHAR, "
            + "\"partition\" VARCHAR, modules BIGINT, dumps VARCHAR[])";

    /** The list fields whose elements are whole numbers; every other list is of text. */
    private static final Set<String> INT_LISTS = Set.of("values.dims");

    /** Every table of {@code catalog}'s entities, in its order. */
    static List<TableDef> tables(Catalog catalog) {
        List<TableDef> out = new ArrayList<>();
        for (String entity : catalog.entities()) out.add(table(catalog, entity));
        return out;
    }

    private static TableDef table(Catalog catalog, String entity) {
        List<Column> cols = new ArrayList<>(KEYS);
        Set<String> taken = new HashSet<>();
        for (Column k : KEYS) taken.add(k.name());
        for (FieldInfo f : catalog.fields(entity)) {
            // modules' own handle, program, backend and versions are the keys' (the same values, one column)
            if (!taken.add(f.name())) continue;
            cols.add(new Column(f.name(), sqlType(entity + "." + f.name(), f.type()), f.type(), f.name()));
        }
        return new TableDef(entity, List.copyOf(cols));
    }

    private static String sqlType(String field, ColumnType t) {
        return switch (t) {
            case INT, BYTES -> "BIGINT";
            case FLOAT, PERCENT -> "DOUBLE";
            case BOOL -> "BOOLEAN";
            case LIST -> INT_LISTS.contains(field) ? "BIGINT[]" : "VARCHAR[]";
            case STRING, NOTE, KEY, STATEMENT -> "VARCHAR";
        };
    }

    /** {@code name} as an SQL identifier: {@code values} is a keyword, and a name may hold anything. */
    static String quote(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** {@code s} as an SQL string literal. */
    static String literal(String s) {
        return '\'' + s.replace("'", "''") + '\'';
    }
}
