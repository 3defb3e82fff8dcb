package bufq.shell.sql;

import bufq.eval.Catalog;
import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.ModuleSet;
import bufq.shell.session.Modules;
import org.duckdb.DuckDBConnection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An in-process DuckDB holding the loaded modules' tables, read module by module ({@link Loader}).
 * Its memory is bounded ({@link #MEMORY_LIMIT}): past it DuckDB spills to a temporary folder of its
 * own, deleted on {@link #close}.
 */
final class Stage implements AutoCloseable {
    /** What DuckDB may hold in memory before it spills to disk. */
    static final String MEMORY_LIMIT = "1GB";

    final DuckDBConnection conn;
    private final Path spill;
    private final List<Schema.TableDef> tables;
    private Map<String, Long> counts = Map.of();
    private final List<String> dumps = new ArrayList<>();
    private int modules;

    private Stage(DuckDBConnection conn, Path spill, List<Schema.TableDef> tables) {
        this.conn = conn;
        this.spill = spill;
        this.tables = tables;
    }

    /** An empty DuckDB in memory with {@code tables} made (none loaded). */
    static Stage open(List<Schema.TableDef> tables) throws SQLException, IOException {
        Path spill = Files.createTempDirectory("bufq-duckdb");
        DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = c.createStatement()) {
            st.execute("SET memory_limit = " + Schema.literal(MEMORY_LIMIT));
            st.execute("SET temp_directory = " + Schema.literal(spill.toString()));
            // No extension is fetched: everything bufq asks of DuckDB is built in, and a machine may be offline.
            st.execute("SET autoinstall_known_extensions = false");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return new Stage(c, spill, tables);
    }

    /** As {@link #open}, a failure to start DuckDB said in one line. */
    static Stage start(List<Schema.TableDef> tables) throws CommandException {
        try {
            return open(tables);
        } catch (SQLException | IOException e) {
            throw new CommandException("cannot start DuckDB: " + e.getMessage());
        }
    }

    /** Every table of the standard catalog, or those named in {@code entities}. */
    static List<Schema.TableDef> tables(List<String> entities) throws CommandException {
        List<Schema.TableDef> all = Schema.tables(Catalog.standard());
        if (entities.isEmpty()) return all;
        List<Schema.TableDef> out = new ArrayList<>();
        List<String> names = all.stream().map(Schema.TableDef::name).toList();
        for (String e : entities) {
            int i = names.indexOf(e);
            if (i < 0) throw new CommandException("no table '" + e + "'; expected one of " + String.join(", ", names));
            if (!out.contains(all.get(i))) out.add(all.get(i));
        }
        return out;
    }

    /** Reads every module of {@code set} into the tables, one module at a time. */
    void load(Modules set, TilingModel tiling) throws CommandException, Engine.Failure {
        Set<DumpPart> parts = EnumSet.noneOf(DumpPart.class);
        Catalog catalog = Catalog.standard();
        for (Schema.TableDef t : tables) {
            parts.addAll(catalog.needs(t.name(), null));
            for (Schema.Column c : t.columns()) if (c.field() != null) parts.addAll(catalog.needs(t.name(), c.field()));
        }
        HloModule current = set.current();
        // programs of one dump sharing a name: their module key takes XLA's number (jit__normal#0010)
        Map<String, Integer> named = new HashMap<>();
        for (ModuleSet.Entry e : set.set().entries()) named.merge(ModuleKeys.folder(e.files()) + "\0" + e.name(), 1, Integer::sum);
        try (Loader loader = new Loader(conn, tables)) {
            set.forEachModule(m -> {
                if (!parts.isEmpty()) set.readParts(m, parts);
                try {
                    ModuleKeys keys = ModuleKeys.of(m, named.getOrDefault(ModuleKeys.folder(m.info().files()) + "\0" + m.info().name(), 1) > 1);
                    loader.add(m, keys, tiling, m == current);
                    if (keys.dump() != null && !dumps.contains(keys.dump())) dumps.add(keys.dump());
                } catch (IOException e) {
                    throw new CommandException("cannot read " + m.info().files() + ": " + e.getMessage());
                } catch (SQLException e) {
                    throw new CommandException(Failures.message(e));
                }
                modules++;
            });
            loader.flush();
            counts = loader.counts();
        } catch (SQLException e) {
            throw new CommandException(Failures.message(e));
        }
    }

    List<Schema.TableDef> tables() { return tables; }

    /** Rows per table. */
    long rows(String table) { return counts.getOrDefault(table, 0L); }

    int modules() { return modules; }

    /** The folders the modules were read from, in load order. */
    List<String> dumps() { return List.copyOf(dumps); }

    @Override public void close() {
        try {
            conn.close();
        } catch (SQLException e) {
            // an in-memory database: nothing is lost
        }
        try (Stream<Path> s = Files.walk(spill)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            // a temporary folder left behind
        }
    }
}
