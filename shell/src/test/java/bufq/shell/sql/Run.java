package bufq.shell.sql;

import bufq.shell.cli.Bufq;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** bufq run in this JVM as Main runs it, and a second DuckDB client: what the tests of this package drive. */
record Run(int code, String out, String err) {
    static Run bufq(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Bufq b = new Bufq(new Env(Map.of(), false), DefaultEngine::new, in -> { throw new AssertionError("no REPL"); });
        int code = b.run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The checkout's root (tests run in a module's folder). */
    static Path root() {
        return Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize();
    }

    /** The rows of {@code sql} on a DuckDB of its own (in memory, or {@code database}): the second client. */
    static List<List<Object>> client(String database, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + (database == null ? "" : database));
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            List<List<Object>> rows = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) row.add(rs.getObject(i));
                rows.add(row);
            }
            return rows;
        }
    }

    /** The TSV rows bufq printed after its header line (one result). */
    List<String[]> tsv() {
        List<String[]> rows = new ArrayList<>();
        String[] lines = out.split("\n");
        for (int i = 1; i < lines.length; i++) if (!lines[i].isEmpty()) rows.add(lines[i].split("\t", -1));
        return rows;
    }
}
