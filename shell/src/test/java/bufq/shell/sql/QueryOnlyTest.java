package bufq.shell.sql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code sql} runs queries only, even on a folder the user allowed: every statement that writes, makes,
 * sets or loads is refused before it runs, as is a query calling a function that acts; each query
 * form still runs. The folder stays as it was.
 */
class QueryOnlyTest {
    private static final String SEED = SqlCommandTest.SEED;

    /** A statement, and what its refusal says. */
    record Refused(String sql, String says) {}

    static List<Refused> refused(Path dir) {
        String f = dir.resolve("f").toString();
        return List.of(
                new Refused("copy (select 1) to '" + f + ".csv'", "COPY is refused"),
                new Refused("copy values to '" + f + ".parquet' (format parquet)", "COPY is refused"),
                new Refused("select 1 as x; copy (select 1) to '" + f + ".csv'", "COPY is refused"),
                new Refused("explain analyze copy (select 1) to '" + f + ".csv'", "COPY is refused"),
                new Refused("explain (analyze) copy (select 1) to '" + f + ".csv'", "sql runs queries only"),
                // a comment before EXPLAIN is not looked through: DuckDB's lexer decides where it ends
                new Refused("/* /* */ explain select '*/ copy (select 1) to ''" + f + ".csv''; --'", "parser error"),
                new Refused("/* c */ explain analyze copy (select 1) to '" + f + ".csv'", "sql runs queries only"),
                new Refused("export database '" + f + "'", "EXPORT is refused"),
                new Refused("attach '" + f + ".duckdb' as x", "ATTACH is refused"),
                new Refused("attach '" + f + ".duckdb' as x (read_only)", "ATTACH is refused"),
                new Refused("install parquet", "INSTALL is refused"),
                new Refused("load parquet", "LOAD is refused"),
                new Refused("set threads = 1", "SET is refused"),
                new Refused("reset threads", "RESET is refused"),
                new Refused("create table t as select 1 as x", "CREATE is refused"),
                new Refused("create macro m() as 1", "CREATE is refused"),
                new Refused("insert into values select * from values", "INSERT is refused"),
                new Refused("update values set size = 0", "UPDATE is refused"),
                new Refused("delete from values", "DELETE is refused"),
                new Refused("drop table values", "DROP is refused"),
                new Refused("pragma enable_profiling", "PRAGMA is refused"),
                new Refused("call checkpoint()", "CALL is refused"),
                new Refused("checkpoint", "CHECKPOINT is refused"),
                new Refused("use memory", "USE is refused"),
                new Refused("create persistent secret s (type s3, key_id 'k', secret 'v')", "CREATE is refused"),
                // an extension's function is neither installed nor loaded for it
                new Refused("select * from read_xlsx('" + f + ".xlsx')", "is not in the catalog"),
                new Refused("select * from enable_logging(storage = 'file', storage_path = '" + f + "')", "enable_logging() acts"),
                new Refused("select * from checkpoint()", "checkpoint() acts"),
                new Refused("select * from query('select 1')", "query() acts"),
                new Refused("select write_log('x')", "write_log() acts"),
                new Refused("describe select * from enable_logging()", "enable_logging() acts"));
    }

    @Test
    void whatWritesSetsOrMakesIsRefusedEvenInAnAllowedFolder(@TempDir Path tmp) throws Exception {
        Path allowed = Files.createDirectories(tmp.resolve("runs"));
        for (Refused p : refused(allowed)) {
            Run r = Run.bufq("--sql-allow", allowed.toString(), "-c", "sql " + p.sql(), "-c", "sql select 7 as after", SEED);
            assertEquals(1, r.code(), p.sql() + ": " + r.err());
            assertTrue(r.err().contains(p.says()), p.sql() + ": " + r.err());
            assertTrue(r.err().lines().noneMatch(l -> l.startsWith("\tat ")), "no stack trace: " + r.err());
            assertTrue(r.out().contains("after"), "the run went on: " + p.sql());
        }
        try (Stream<Path> s = Files.list(allowed)) {
            assertEquals(List.of(), s.toList(), "nothing was written in the allowed folder");
        }
    }

    @Test
    void theCaretIsUnderTheRefusedWord() {
        Run r = Run.bufq("-c", "sql select 1 as x; copy (select 1) to 'x.csv'", SEED);
        List<String> lines = r.err().lines().toList();
        int line = lines.indexOf("select 1 as x; copy (select 1) to 'x.csv'");
        assertTrue(line >= 0, r.err());
        assertEquals("               ^^^^", lines.get(line + 1), r.err());
    }

    @Test
    void everyQueryFormRuns(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("a.csv"), "x\n41\n");
        for (String q : List.of("select count(*) as n from values", "with a as (select 1 as x) select * from a", "values (1), (2)",
                "from range(2)", "describe values", "show tables", "summarize select 1 as x", "explain select 1",
                "explain analyze select 1", "select 1 as x union all select 2", "select * from pragma_table_info('values')",
                "select * from read_csv('" + tmp.resolve("a.csv") + "')", "select * from duckdb_settings() limit 1",
                "select upper('a') as u; select 2 as v")) {
            Run r = Run.bufq("--sql-allow", tmp.toString(), "--sql", q, SEED);
            assertEquals(0, r.code(), q + ": " + r.err());
        }
        Run syntax = Run.bufq("--sql", "select (", SEED);
        assertEquals(1, syntax.code());
        assertTrue(syntax.err().contains("parser error"), "DuckDB's own message for text it cannot parse: " + syntax.err());
    }
}
