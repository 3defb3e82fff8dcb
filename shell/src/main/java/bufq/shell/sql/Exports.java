package bufq.shell.sql;

import bufq.model.TilingModel;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Modules;
import bufq.shell.session.TempFiles;
import bufq.shell.session.Version;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
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
                throw new CommandException("--partition takes KEY=VALUE (a Hive-style folder: run=2026-12-01), not '" + w + "'");
            if (v.contains("/") || v.contains("\\") || v.equals(".") || v.equals("..") || v.chars().anyMatch(c -> c < 0x20))
                throw new CommandException("--partition " + w + ": a value is one folder name (no '/', '\\', '.' or '..')");
            if (out.put(k, v) != null) throw new CommandException("--partition " + k + " is given twice");
        }
        return out;
    }

    private static String label(Map<String, String> partitions) {
        List<String> parts = new ArrayList<>();
        partitions.forEach((k, v) -> parts.add(k + "=" + v));
        return parts.isEmpty() ? null : String.join("/", parts);
    }

    static String parquet(Modules modules, TilingModel tiling, Path dir, List<String> entities, Map<String, String> partitions,
                          boolean force) throws CommandException, Engine.Failure {
        List<Schema.TableDef> tables = Stage.tables(entities);
        Path target = dir;
        for (Map.Entry<String, String> p : partitions.entrySet()) target = target.resolve(p.getKey() + "=" + p.getValue());
        if (!force) {
            for (Schema.TableDef t : tables) {
                Path f = target.resolve(t.name() + ".parquet");
                if (Files.exists(f)) throw new CommandException(f + " exists; add --force to replace it, or export to another --partition");
            }
        }
        try (Stage s = Stage.start(tables)) {
            s.load(modules, tiling);
            Files.createDirectories(target);
            TempFiles.removeDead(target);
            List<Path[]> moves = new ArrayList<>();
            List<String> written = new ArrayList<>();
            try {
                try (Statement st = s.conn.createStatement()) {
                    for (Schema.TableDef t : tables) {
                        if (s.rows(t.name()) == 0 && !t.name().equals("modules")) continue;
                        Path tmp = TempFiles.create(target, t.name() + ".parquet");
                        moves.add(new Path[] {tmp, target.resolve(t.name() + ".parquet")});
                        st.execute("COPY " + Schema.quote(t.name()) + " TO " + Schema.literal(tmp.toString())
                                + " (FORMAT parquet, COMPRESSION zstd)");
                        written.add(t.name() + " " + s.rows(t.name()));
                    }
                    if (entities.isEmpty()) {
                        st.execute(Schema.RUNS);
                        insertRun(st, 1, partitions, s);
                        Path tmp = TempFiles.create(target, "runs.parquet");
                        moves.add(new Path[] {tmp, target.resolve("runs.parquet")});
                        st.execute("COPY runs TO " + Schema.literal(tmp.toString()) + " (FORMAT parquet, COMPRESSION zstd)");
                    }
                }
                if (Thread.currentThread().isInterrupted()) throw new CommandException("cancelled (Ctrl-C); nothing was written");
                for (Path[] m : moves) move(m[0], m[1]);
                moves.clear();
                // A whole export replaces a partition: a table this one has no rows for leaves no old file behind.
                if (force && entities.isEmpty()) {
                    Set<String> kept = new HashSet<>();
                    for (String w : written) kept.add(w.substring(0, w.indexOf(' ')));
                    for (Schema.TableDef t : tables) if (!kept.contains(t.name())) Files.deleteIfExists(target.resolve(t.name() + ".parquet"));
                }
            } finally {
                for (Path[] m : moves) Files.deleteIfExists(m[0]);
            }
            return "wrote " + target + ": " + modules(s.modules()) + "; rows: " + String.join(", ", written);
        } catch (SQLException e) {
            throw new CommandException("cannot write Parquet under " + target + ": " + Failures.message(e));
        } catch (IOException e) {
            throw new CommandException("cannot write under " + target + ": " + e.getMessage());
        }
    }

    private static String modules(int n) { return n + (n == 1 ? " module" : " modules"); }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static String duckdb(Modules modules, TilingModel tiling, Path file, List<String> entities, Map<String, String> partitions)
            throws CommandException, Engine.Failure {
        List<Schema.TableDef> tables = Stage.tables(entities);
        if (Files.isDirectory(file)) throw new CommandException(file + " is a folder; export duckdb takes a database file (bufq.duckdb)");
        try (Stage s = Stage.start(tables)) {
            s.load(modules, tiling);
            if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
            try (Statement st = s.conn.createStatement()) {
                st.execute("ATTACH " + Schema.literal(file.toString()) + " AS target");
                boolean committed = false;
                try {
                    st.execute("BEGIN TRANSACTION");
                    st.execute(Schema.RUNS.replace("TABLE IF NOT EXISTS runs", "TABLE IF NOT EXISTS target.runs"));
                    long run;
                    try (ResultSet rs = st.executeQuery("SELECT coalesce(max(run_id), 0) + 1 FROM target.runs")) {
                        rs.next();
                        run = rs.getLong(1);
                    }
                    List<String> counts = new ArrayList<>();
                    for (Schema.TableDef t : tables) {
                        String name = "target." + Schema.quote(t.name());
                        st.execute(t.create("target", List.of(Schema.RUN_ID), true));
                        addMissingColumns(st, t);
                        st.execute("INSERT INTO " + name + " BY NAME SELECT " + run + " AS run_id, * FROM memory.main." + Schema.quote(t.name()));
                        counts.add(t.name() + " " + s.rows(t.name()));
                    }
                    st.execute("INSERT INTO target.runs " + runRow(run, partitions, s));
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
            String m = Failures.message(e);
            if (m.contains("lock")) throw new CommandException("cannot open " + file + ": another process has it open (DuckDB lets one process "
                    + "write a database at a time); parallel jobs export parquet, one folder each");
            throw new CommandException("cannot append to " + file + ": " + m);
        } catch (IOException e) {
            throw new CommandException("cannot write " + file + ": " + e.getMessage());
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
