package bufq.shell.sql;

import bufq.dump.file.OneLine;
import bufq.model.TilingModel;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Modules;
import bufq.shell.session.TempFiles;
import bufq.shell.session.Version;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The two exports of {@link Sql}: Parquet files, and a DuckDB database. */
final class Exports {
    private Exports() {}

    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** {@code run=2026-12-01} words as ordered keys and values, checked: each a folder name of its own. */
    static Map<String, String> partitions(List<String> words) throws CommandException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String w : words) {
            int eq = w.indexOf('=');
            String k = eq < 0 ? w : w.substring(0, eq), v = eq < 0 ? "" : w.substring(eq + 1);
            if (!KEY.matcher(k).matches() || v.isEmpty())
                throw new CommandException("--partition takes KEY=VALUE (a Hive-style folder: run=2026-12-01), not '" + OneLine.of(w) + "'");
            if (v.contains("/") || v.contains("\\") || v.equals(".") || v.equals("..") || !OneLine.of(v).equals(v))
                throw new CommandException("--partition " + OneLine.of(w) + ": a value is one folder name (no '/', '\\', '.', '..' or control character)");
            if (columns().contains(k.toLowerCase(java.util.Locale.ROOT)))
                throw new CommandException("--partition " + k + ": '" + k + "' is a column of the tables; read back with Hive partitioning, the "
                        + "folder's value would replace the column's (name the key otherwise: run, night, model, ...)");
            if (out.put(k, v) != null) throw new CommandException("--partition " + k + " is given twice");
        }
        return out;
    }

    /** Every column name of the tables an export writes, lower case. */
    private static Set<String> columns() throws CommandException {
        Set<String> out = new HashSet<>();
        for (Schema.TableDef t : Stage.tables(List.of())) for (Schema.Column c : t.columns()) out.add(c.name().toLowerCase(java.util.Locale.ROOT));
        out.add(Schema.RUN_ID.name());
        for (String c : List.of("exported_at", "bufq_version", "partition", "modules", "dumps")) out.add(c);
        return out;
    }

    private static String label(Map<String, String> partitions) {
        List<String> parts = new ArrayList<>();
        partitions.forEach((k, v) -> parts.add(k + "=" + v));
        return parts.isEmpty() ? null : String.join("/", parts);
    }

    /**
     * Writes the tables as Parquet into a new folder beside the target, then puts it in place with one
     * rename: an export is whole or absent, whatever kills it. A target folder that exists may hold
     * only files an export writes ({@code TABLE.parquet}); one holding anything else is refused, so
     * an export never deletes what it did not write. Without {@code force} no existing file is
     * replaced; an export of some tables keeps the folder's other tables.
     */
    static String parquet(Modules modules, TilingModel tiling, Path dir, List<String> entities, Map<String, String> partitions,
                          boolean force) throws CommandException, Engine.Failure {
        List<Schema.TableDef> tables = Stage.tables(entities);
        Path target = dir;
        for (Map.Entry<String, String> p : partitions.entrySet()) target = target.resolve(p.getKey() + "=" + p.getValue());
        Set<String> written = new java.util.LinkedHashSet<>(), own = new HashSet<>();
        for (Schema.TableDef t : tables) written.add(t.name() + ".parquet");
        if (entities.isEmpty()) written.add("runs.parquet");
        for (Schema.TableDef t : Stage.tables(List.of())) own.add(t.name() + ".parquet");
        own.add("runs.parquet");
        List<Path> kept = existing(target, own, written, force);
        try (Stage s = Stage.start(tables)) {
            s.load(modules, tiling);
            Path parent = target.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            TempFiles.removeDead(parent);
            TempFiles.removeDeadFolders(parent);
            Path work = TempFiles.createFolder(parent, target.getFileName().toString());
            List<String> counts = new ArrayList<>();
            try {
                try (Statement st = s.conn.createStatement(); Cancel watch = Cancel.watch(st)) {
                    for (Schema.TableDef t : tables) {
                        if (s.rows(t.name()) == 0 && !t.name().equals("modules")) continue;
                        st.execute("COPY " + Schema.quote(t.name()) + " TO " + Schema.literal(work.resolve(t.name() + ".parquet").toString())
                                + " (FORMAT parquet, COMPRESSION zstd)");
                        counts.add(t.name() + " " + s.rows(t.name()));
                    }
                    if (entities.isEmpty()) {
                        st.execute(Schema.RUNS);
                        insertRun(st, 1, partitions, s);
                        st.execute("COPY runs TO " + Schema.literal(work.resolve("runs.parquet").toString()) + " (FORMAT parquet, COMPRESSION zstd)");
                    }
                }
                if (Thread.currentThread().isInterrupted()) throw new CommandException("cancelled (Ctrl-C); nothing was written");
                // The folder's other tables stay, linked (or copied) into the new one.
                for (Path k : kept) {
                    try {
                        Files.createLink(work.resolve(k.getFileName()), k);
                    } catch (IOException | UnsupportedOperationException e) {
                        Files.copy(k, work.resolve(k.getFileName()));
                    }
                }
                swap(work, target, parent);
                work = null;
            } finally {
                if (work != null) TempFiles.deleteTree(work);
            }
            return "wrote " + target + ": " + modules(s.modules()) + "; rows: " + String.join(", ", counts);
        } catch (SQLException e) {
            if (Thread.currentThread().isInterrupted()) throw new CommandException("cancelled (Ctrl-C); nothing was written");
            throw new CommandException("cannot write Parquet under " + target + ": " + Failures.message(e));
        } catch (IOException e) {
            throw new CommandException("cannot write under " + target + ": " + e.getMessage());
        }
    }

    /**
     * The files of an existing {@code target} an export keeps (its other tables'), after checking
     * that it holds nothing an export did not write and, without {@code force}, none of {@code written}.
     */
    private static List<Path> existing(Path target, Set<String> own, Set<String> written, boolean force) throws CommandException {
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) return List.of();
        if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS))
            throw new CommandException(target + " exists and is not a folder (a link or a file is not replaced); export to a new folder");
        TempFiles.removeDead(target);
        if (!force) {
            for (String name : written) {
                Path f = target.resolve(name);
                if (Files.exists(f, LinkOption.NOFOLLOW_LINKS)) throw new CommandException(f + " exists; add --force to replace it, or export to another --partition");
            }
        }
        List<Path> kept = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(target)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (!own.contains(name) || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    throw new CommandException(target + " holds " + OneLine.of(name) + ", which export parquet does not write: an export "
                            + "replaces its folder whole, so it goes to a new folder (or --partition KEY=VALUE) instead");
                if (written.contains(name)) {
                    if (!force) throw new CommandException(p + " exists; add --force to replace it, or export to another --partition");
                } else {
                    kept.add(p);
                }
            }
        } catch (IOException e) {
            throw new CommandException("cannot read " + target + ": " + e.getMessage());
        }
        return kept;
    }

    /** Puts the folder {@code work} in the place of {@code target}: one rename, the old folder (only an export's files) deleted after. */
    private static void swap(Path work, Path target, Path parent) throws IOException {
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            try (DirectoryStream<Path> d = Files.newDirectoryStream(target)) {
                if (!d.iterator().hasNext()) Files.delete(target);
            }
        }
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
            return;
        }
        Path old = TempFiles.name(parent, target.getFileName().toString(), "old" + Long.toUnsignedString(System.nanoTime(), 36));
        Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
        Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
        TempFiles.deleteTree(old);
    }

    private static String modules(int n) { return n + (n == 1 ? " module" : " modules"); }

    /**
     * Runs on the exporting thread just before {@code export duckdb} commits: a test's Ctrl-C at the
     * last moment it can still stop the export, where a real one cannot be timed to arrive.
     */
    static volatile Runnable beforeCommit = () -> {};

    static String duckdb(Modules modules, TilingModel tiling, Path file, List<String> entities, Map<String, String> partitions)
            throws CommandException, Engine.Failure {
        List<Schema.TableDef> tables = Stage.tables(entities);
        String name = file.toString();
        // DuckDB reads some names as no file at all: an in-memory database, a URL, a service
        if (name.startsWith(":") || name.contains("://") || name.matches("(?i)^(md|motherduck):.*"))
            throw new CommandException("export duckdb takes a database file (bufq.duckdb), not '" + OneLine.of(name)
                    + "', which DuckDB would not write to disk");
        if (Files.isDirectory(file)) throw new CommandException(file + " is a folder; export duckdb takes a database file (bufq.duckdb)");
        if (Files.exists(file) && !Files.isRegularFile(file)) throw new CommandException(file + ": not a regular file (a FIFO, device or socket)");
        try (Stage s = Stage.start(tables)) {
            s.load(modules, tiling);
            if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
            try (Statement st = s.conn.createStatement(); Cancel watch = Cancel.watch(st)) {
                st.execute("ATTACH " + Schema.literal(name) + " AS target");
                boolean committed = false;
                try {
                    checkOwnTables(st, file);
                    st.execute("BEGIN TRANSACTION");
                    st.execute(Schema.RUNS.replace("TABLE IF NOT EXISTS runs", "TABLE IF NOT EXISTS target.runs"));
                    long run;
                    try (ResultSet rs = st.executeQuery("SELECT coalesce(max(run_id), 0) + 1 FROM target.runs")) {
                        rs.next();
                        run = rs.getLong(1);
                    }
                    List<String> counts = new ArrayList<>();
                    for (Schema.TableDef t : tables) {
                        String table = "target." + Schema.quote(t.name());
                        st.execute(t.create("target", List.of(Schema.RUN_ID), true));
                        addMissingColumns(st, t);
                        st.execute("INSERT INTO " + table + " BY NAME SELECT " + run + " AS run_id, * FROM memory.main." + Schema.quote(t.name()));
                        counts.add(t.name() + " " + s.rows(t.name()));
                    }
                    st.execute("INSERT INTO target.runs " + runRow(run, partitions, s));
                    // Ctrl-C before the commit: nothing is added
                    beforeCommit.run();
                    if (Thread.currentThread().isInterrupted()) throw new CommandException("cancelled (Ctrl-C); nothing was added to " + file);
                    st.execute("COMMIT");
                    committed = true;
                    return "appended run " + run + " to " + file + ": " + modules(s.modules()) + "; rows: " + String.join(", ", counts);
                } finally {
                    if (!committed) {
                        try { st.execute("ROLLBACK"); } catch (SQLException ignored) { /* no transaction left */ }
                    }
                    try { st.execute("DETACH target"); } catch (SQLException ignored) { /* closing the stage detaches it */ }
                }
            }
        } catch (SQLException e) {
            if (Thread.currentThread().isInterrupted()) throw new CommandException("cancelled (Ctrl-C); nothing was added to " + file);
            String m = Failures.message(e);
            if (m.contains("lock")) throw new CommandException("cannot open " + file + ": another process has it open (DuckDB lets one process "
                    + "write a database at a time); parallel jobs export parquet, one folder each");
            throw new CommandException("cannot append to " + file + ": " + m);
        } catch (IOException e) {
            throw new CommandException("cannot write " + file + ": " + e.getMessage());
        }
    }

    /**
     * Refuses a database whose tables or views named as bufq's were not made by an export: one with
     * no {@code runs} table of bufq's columns, or such a table without {@code run_id}. An export adds
     * rows and columns to its own tables only, and leaves every other table alone.
     */
    private static void checkOwnTables(Statement st, Path file) throws SQLException, CommandException {
        Map<String, Set<String>> columns = new LinkedHashMap<>();
        try (ResultSet rs = st.executeQuery("SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = 'target' "
                + "AND schema_name = 'main'")) {
            while (rs.next()) columns.computeIfAbsent(rs.getString(1), k -> new HashSet<>()).add(rs.getString(2));
        }
        Set<String> views = new HashSet<>();
        try (ResultSet rs = st.executeQuery("SELECT view_name FROM duckdb_views() WHERE database_name = 'target' AND schema_name = 'main'")) {
            while (rs.next()) views.add(rs.getString(1));
        }
        Set<String> ours = new HashSet<>();
        for (Schema.TableDef t : Stage.tables(List.of())) ours.add(t.name());
        ours.add("runs");
        Set<String> runs = columns.get("runs");
        boolean bufqs = runs != null && !views.contains("runs")
                && runs.containsAll(List.of("run_id", "exported_at", "bufq_version", "partition", "modules", "dumps"));
        for (String t : ours) {
            if (views.contains(t)) throw new CommandException(file + " has a view '" + OneLine.of(t) + "', which export duckdb did not make: "
                    + "it adds only to its own tables; export to a new database");
            Set<String> c = columns.get(t);
            if (c == null) continue;
            if (!bufqs || !t.equals("runs") && !c.contains(Schema.RUN_ID.name()))
                throw new CommandException(file + " has a table '" + OneLine.of(t) + "' that export duckdb did not make (" + (bufqs
                        ? "no run_id column" : "no runs table of bufq's") + "): it adds only to its own tables; export to a new database");
        }
    }

    /** Adds to the database's table the columns this bufq writes and an older one did not. */
    private static void addMissingColumns(Statement st, Schema.TableDef t) throws SQLException {
        Set<String> have = new HashSet<>();
        try (ResultSet rs = st.executeQuery("SELECT column_name FROM duckdb_columns() WHERE database_name = 'target' AND schema_name = 'main' "
                + "AND table_name = " + Schema.literal(t.name()))) {
            while (rs.next()) have.add(rs.getString(1));
        }
        for (Schema.Column c : t.columns()) {
            if (!have.contains(c.name()))
                st.execute("ALTER TABLE target." + Schema.quote(t.name()) + " ADD COLUMN " + Schema.quote(c.name()) + " " + c.sqlType());
        }
    }

    private static void insertRun(Statement st, long run, Map<String, String> partitions, Stage s) throws SQLException {
        st.execute("INSERT INTO runs " + runRow(run, partitions, s));
    }

    /** {@code VALUES (...)} of a {@code runs} row. */
    private static String runRow(long run, Map<String, String> partitions, Stage s) {
        String label = label(partitions);
        StringBuilder dumps = new StringBuilder("[");
        for (String d : s.dumps()) dumps.append(dumps.length() > 1 ? ", " : "").append(Schema.literal(d));
        return "VALUES (" + run + ", now()::TIMESTAMP, " + Schema.literal(Version.NUMBER) + ", "
                + (label == null ? "NULL" : Schema.literal(label)) + ", " + s.modules() + ", " + dumps.append("]::VARCHAR[]") + ")";
    }
}
