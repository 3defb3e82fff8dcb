package bufq.shell.sql;

import bufq.eval.Catalog;
import bufq.eval.EvalContext;
import bufq.eval.ModuleRow;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.shell.session.CommandException;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Appends modules' rows to a DuckDB connection's tables through its appender, one module at a time:
 * each module's rows are handed to DuckDB as they are read, so no more than one module's rows are
 * ever held by bufq, whatever the set.
 */
final class Loader implements AutoCloseable {
    private final Catalog catalog = Catalog.standard();
    private final List<Schema.TableDef> tables;
    private final Map<String, DuckDBAppender> appenders = new LinkedHashMap<>();
    private final Map<String, Long> counts = new LinkedHashMap<>();

    /**
     * Creates {@code tables} in {@code conn}'s database {@code catalog} (null: its own), which must
     * have none of them, and opens an appender on each.
     */
    Loader(DuckDBConnection conn, String catalog, List<Schema.TableDef> tables) throws SQLException {
        this.tables = tables;
        try (var st = conn.createStatement()) {
            for (Schema.TableDef t : tables) st.execute(t.create(catalog, List.of(), false));
        }
        for (Schema.TableDef t : tables) {
            appenders.put(t.name(), catalog == null ? conn.createAppender(DuckDBConnection.DEFAULT_SCHEMA, t.name())
                    : conn.createAppender(catalog, DuckDBConnection.DEFAULT_SCHEMA, t.name()));
            counts.put(t.name(), 0L);
        }
    }

    /** Appends every row of every table of {@code m}, as a query under {@code tiling} sees it. */
    void add(HloModule m, ModuleKeys keys, TilingModel tiling, boolean current) throws SQLException {
        EvalContext ctx = new EvalContext(m, tiling, List.of(ModuleRow.of(m, current)));
        List<Object> key = keys.cells();
        for (Schema.TableDef t : tables) {
            DuckDBAppender a = appenders.get(t.name());
            List<?> rows = catalog.rows(t.name(), ctx);
            int n = 0;
            for (Object row : rows) {
                // Ctrl-C and the time limit, within a big module too
                if ((++n & 4095) == 0 && Thread.currentThread().isInterrupted()) throw new SQLException(CommandException.CANCELLED);
                a.beginRow();
                for (int i = 0; i < t.columns().size(); i++) {
                    Schema.Column c = t.columns().get(i);
                    Object v = c.field() == null ? key.get(i) : value(t.name(), c, row, ctx, m);
                    append(a, c, v);
                }
                a.endRow();
            }
            counts.merge(t.name(), (long) rows.size(), Long::sum);
        }
    }

    private Object value(String entity, Schema.Column c, Object row, EvalContext ctx, HloModule m) throws SQLException {
        try {
            return catalog.value(entity, c.field(), row, ctx);
        } catch (RuntimeException e) {
            throw new SQLException(m.handle() + ": " + entity + "." + c.field() + " failed: " + e.getMessage(), e);
        }
    }

    private static void append(DuckDBAppender a, Schema.Column c, Object v) throws SQLException {
        if (v == null) {
            a.appendNull();
            return;
        }
        switch (c.type()) {
            case INT, BYTES -> a.append(((Number) v).longValue());
            case FLOAT, PERCENT -> a.append(((Number) v).doubleValue());
            case BOOL -> a.append((boolean) (Boolean) v);
            case LIST -> a.append(list((Collection<?>) v, c.sqlType().startsWith("BIGINT")));
            case STRING, NOTE, KEY, STATEMENT -> a.append(v.toString());
        }
    }

    /** A list as its column takes it: of longs, or of the items' text. */
    private static List<Object> list(Collection<?> items, boolean numbers) {
        List<Object> out = new ArrayList<>(items.size());
        for (Object o : items) out.add(o == null ? null : numbers ? (Object) ((Number) o).longValue() : o.toString());
        return out;
    }

    /** Rows appended so far, per table. */
    Map<String, Long> counts() { return Map.copyOf(counts); }

    /** Hands every appended row to the tables. */
    void flush() throws SQLException {
        for (DuckDBAppender a : appenders.values()) a.flush();
    }

    @Override public void close() throws SQLException {
        SQLException first = null;
        for (DuckDBAppender a : appenders.values()) {
            try {
                a.close();
            } catch (SQLException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }
}
