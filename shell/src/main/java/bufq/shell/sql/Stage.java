package bufq.shell.sql;

import bufq.eval.Catalog;
import bufq.model.HloModule;
import bufq.model.TilingModel;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.ModuleSet;
import bufq.shell.session.Modules;
import bufq.shell.session.TempFiles;
import org.duckdb.DuckDBConnection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * An in-process DuckDB holding the loaded modules' tables, read module by module ({@link Loader}).
 * Its memory and threads are bounded ({@link #MEMORY_LIMIT}, {@link #THREADS}): past the memory it
 * spills to a folder of its own inside bufq's ({@link TempFiles#ownFolder}), deleted on {@link
 * #close} (and by a later run, after a kill). No extension is installed or loaded while it runs.
 *
 * <p>A stage for {@code sql} ({@link #forQueries}) is a sandbox: the tables are a database attached
 * read only, and once they are loaded DuckDB's file access is off but for the folders the user
 * allowed, and its configuration locked, so a statement can neither reach other files nor raise a
 * bound ({@link #seal}).
 */
final class Stage implements AutoCloseable {
    /** What DuckDB may hold in memory before it spills to disk. */
    static final String MEMORY_LIMIT = "1GB";
    /** What it may spill. */
    static final String SPILL_LIMIT = "8GB";
    /** Its threads. */
    static final int THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    /** How deep an expression may nest: DuckDB's default, locked. */
    static final int MAX_EXPRESSION_DEPTH = 1000;
    /** The read-only database holding a sandbox's tables. */
    static final String TABLES = "bufq";

    final DuckDBConnection conn;
    private final Path folder;
    private final String catalog;
    private final List<Schema.TableDef> tables;
    private Map<String, Long> counts = Map.of();
    private final List<String> dumps = new ArrayList<>();
    private int modules;
    private Path tablesFile;

    /** The folders of the stages open in this process, deleted at its exit if still there. */
    private static final java.util.Set<Path> OPEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.forEach(TempFiles::deleteTree), "bufq-duckdb-cleanup"));
    }

    private Stage(DuckDBConnection conn, Path folder, String catalog, List<Schema.TableDef> tables) {
        OPEN.add(folder);
        this.conn = conn;
        this.folder = folder;
        this.catalog = catalog;
        this.tables = tables;
    }

    /** DuckDB's settings at start-up: bounded, no extension fetched or loaded (a machine may be offline; the JDBC build has Parquet). */
    private static Properties settings(Path spill) {
        Properties p = new Properties();
        p.setProperty("memory_limit", MEMORY_LIMIT);
        p.setProperty("threads", Integer.toString(THREADS));
        p.setProperty("temp_directory", spill.toString());
        p.setProperty("max_temp_directory_size", SPILL_LIMIT);
        p.setProperty("max_expression_depth", Integer.toString(MAX_EXPRESSION_DEPTH));
        p.setProperty("autoinstall_known_extensions", "false");
        p.setProperty("autoload_known_extensions", "false");
        p.setProperty("allow_community_extensions", "false");
        p.setProperty("allow_persistent_secrets", "false");
        // Rows are fetched as they are read, not all made before the first one.
        p.setProperty("jdbc_stream_results", "true");
        return p;
    }

    /** An empty DuckDB in memory with {@code tables} made (none loaded): an export's. */
    static Stage open(List<Schema.TableDef> tables) throws SQLException, IOException {
        return open(tables, null);
    }

    private static Stage open(List<Schema.TableDef> tables, String catalog) throws SQLException, IOException {
        Path own = TempFiles.ownFolder();
        TempFiles.removeDeadFolders(own);
        Path folder = TempFiles.createFolder(own, "duckdb");
        try {
            Path spill = Files.createDirectory(folder.resolve("spill"));
            DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:", settings(spill));
            NativeLibrary.forget();
            Stage s = new Stage(c, folder, catalog, tables);
            if (catalog != null) {
                s.tablesFile = folder.resolve("tables.duckdb");
                try (Statement st = c.createStatement()) {
                    st.execute("ATTACH " + Schema.literal(s.tablesFile.toString()) + " AS " + catalog);
                } catch (SQLException e) {
                    s.close();
                    throw e;
                }
            }
            return s;
        } catch (SQLException | IOException | RuntimeException e) {
            TempFiles.deleteTree(folder);
            throw e;
        }
    }

    /** As {@link #open}, a failure to start DuckDB said in one line. */
    static Stage start(List<Schema.TableDef> tables) throws CommandException {
        try {
            return open(tables, null);
        } catch (SQLException | IOException e) {
            throw new CommandException("cannot start DuckDB: " + e.getMessage());
        }
    }

    /** A stage for {@code sql}: its tables in the database {@link #TABLES}, to be {@link #seal sealed} once loaded. */
    static Stage forQueries() throws CommandException {
        try {
            return open(tables(List.of()), TABLES);
        } catch (SQLException | IOException e) {
            throw new CommandException("cannot start DuckDB: " + e.getMessage());
        }
    }

    /**
     * Makes the loaded tables read only (their database attached again, read only) and closes the
     * sandbox: no file but those under {@code allowed} (and DuckDB's spill), no setting changed
     * from here on.
     */
    void seal(List<Path> allowed) throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.execute("DETACH " + catalog);
            st.execute("ATTACH " + Schema.literal(tablesFile.toString()) + " AS " + catalog + " (READ_ONLY)");
            StringBuilder dirs = new StringBuilder("[");
            for (Path p : allowed) dirs.append(dirs.length() > 1 ? ", " : "").append(Schema.literal(p.toString()));
            st.execute("SET allowed_directories = " + dirs.append(']'));
            st.execute("SET enable_external_access = false");
            st.execute("SET lock_configuration = true");
        }
    }

    /** Whether the tables' database is still the one {@link #seal} attached, read only (a statement may have detached it). */
    boolean intact() throws SQLException {
        try (Statement st = conn.createStatement();
             ResultSet rs = st.executeQuery("SELECT path, readonly FROM duckdb_databases() WHERE database_name = " + Schema.literal(catalog))) {
            return rs.next() && tablesFile.toString().equals(rs.getString(1)) && rs.getBoolean(2);
        }
    }

    /** The search path of a connection to the sandbox: its tables first, so nothing a statement makes elsewhere hides them. */
    String searchPath() { return catalog + ".main"; }

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

    /** Whether filling {@code tables} reads the Used values section (an entity's rows or a column's field). */
    private static boolean readsUsedValues(List<Schema.TableDef> tables) {
        Catalog fields = Catalog.standard();
        for (Schema.TableDef t : tables) {
            if (fields.readsUsedValues(t.name(), null)) return true;
            for (Schema.Column c : t.columns()) if (c.field() != null && fields.readsUsedValues(t.name(), c.field())) return true;
        }
        return false;
    }

    /** Reads every module of {@code set} into the tables, one module at a time. */
    void load(Modules set, TilingModel tiling) throws CommandException, Engine.Failure {
        boolean readsUsedValues = readsUsedValues(tables);
        HloModule current = set.current();
        // programs of one dump sharing a name: their module key takes XLA's number (jit__normal#0010)
        Map<String, Integer> named = new HashMap<>();
        for (ModuleSet.Entry e : set.set().entries()) named.merge(ModuleKeys.folder(e.files()) + "\0" + e.name(), 1, Integer::sum);
        try (Loader loader = new Loader(conn, catalog, tables)) {
            set.forEachModule(m -> {
                if (Thread.currentThread().isInterrupted()) throw new CommandException(CommandException.CANCELLED);
                if (readsUsedValues) set.readUsedValues(m);
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
            // its files are deleted below all the same
        }
        TempFiles.deleteTree(folder);
        OPEN.remove(folder);
    }
}
