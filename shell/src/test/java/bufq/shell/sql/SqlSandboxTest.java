package bufq.shell.sql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a hostile {@code sql} statement (a colleague's script, a bug report's {@code -c}) can do: no
 * more than query the loaded tables and the folders the user allowed. Each probe is refused or
 * bounded, and the run goes on.
 */
class SqlSandboxTest {
    private static final String SEED = SqlCommandTest.SEED;

    private static Run sql(String text, String... more) {
        String[] args = new String[more.length + 3];
        args[0] = "--sql";
        args[1] = text;
        System.arraycopy(more, 0, args, 2, more.length);
        args[args.length - 1] = SEED;
        return Run.bufq(args);
    }

    @Test
    void noFileOutsideTheAllowedFoldersIsReadOrWritten(@TempDir Path tmp) throws Exception {
        Path secret = Files.writeString(tmp.resolve("secret.txt"), "the key\n");
        for (String probe : List.of("select * from read_csv('" + secret + "')", "select * from read_text('" + secret + "')",
                "select * from glob('" + tmp + "/*')", "select * from read_json('" + secret + "')",
                "select * from read_blob('" + secret + "')")) {
            Run r = sql(probe);
            assertEquals(1, r.code(), probe);
            assertTrue(r.err().contains("disabled by configuration"), probe + ": " + r.err());
            assertFalse(r.out().contains("the key") || r.err().contains("the key"), probe);
        }
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(List.of("secret.txt"), s.map(p -> p.getFileName().toString()).toList(), "nothing was written");
        }
    }

    @Test
    void anAllowedFolderIsReadableAndNoScriptWidensIt(@TempDir Path tmp) throws Exception {
        Path allowed = Files.createDirectories(tmp.resolve("runs"));
        Files.writeString(allowed.resolve("a.csv"), "x\n41\n");
        Files.writeString(tmp.resolve("b.csv"), "x\n42\n");
        Run ok = Run.bufq("--format", "tsv", "--sql-allow", allowed.toString(), "--sql", "select x from read_csv('" + allowed.resolve("a.csv") + "')", SEED);
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("41"), ok.out());
        Run outside = Run.bufq("--sql-allow", allowed.toString(), "--sql", "select x from read_csv('" + allowed.resolve("../b.csv") + "')", SEED);
        assertEquals(1, outside.code(), outside.err());
        for (String set : List.of("set enable_external_access = true", "set allowed_directories = ['/']", "set memory_limit = '100GB'",
                "set max_expression_depth = 100000", "set lock_configuration = false", "set threads = 64",
                "set temp_directory = '/tmp'", "set custom_extension_repository = 'http://example.com'")) {
            Run r = sql(set);
            assertEquals(1, r.code(), set);
            assertTrue(r.err().contains("sql runs queries only"), set + ": " + r.err());
        }
        Run install = sql("install httpfs");
        assertEquals(1, install.code(), install.err());
    }

    @Test
    void theSessionTablesAreReadOnlyAndCannotBeHidden(@TempDir Path tmp) throws Exception {
        Path script = Files.writeString(tmp.resolve("blind.bq"), String.join("\n",
                "sql delete from values",
                "sql create temp table values as select 1 as id",
                "sql use memory",
                "sql create table memory.main.values as select 1 as id",
                "sql update values set size = 0",
                "sql drop table values",
                "") );
        Run r = Run.bufq("--format", "tsv", "-f", script.toString(), "-c", "sql select count(*) as n from values", SEED);
        assertEquals(6, r.err().split("sql runs queries only", -1).length - 1, r.err());
        List<String[]> rows = r.tsv();
        Run direct = Run.bufq("--format", "tsv", "-c", "values show count()", SEED);
        assertEquals(direct.tsv().get(0)[0], rows.get(rows.size() - 1)[0], "every value is still there: " + r.out());
        Run guard = Run.bufq("-f", script.toString(), "-c", "sql --fail-on-rows select * from values limit 1", SEED);
        assertTrue(guard.err().contains("--fail-on-rows: the query returned 1 row"), "the script did not blind the guard: " + guard.err());
        Run detach = Run.bufq("--format", "tsv", "-c", "sql use memory; detach bufq", "-c", "sql select count(*) as n from values", SEED);
        assertTrue(detach.err().contains("USE is refused"), detach.err());
        assertEquals(direct.tsv().get(0)[0], detach.tsv().get(detach.tsv().size() - 1)[0], detach.out());
    }

    @Test
    void theGuardFlagGoesBeforeTheSqlNeverIntoAComment() {
        Run after = Run.bufq("-c", "sql select 1 as x --fail-on-rows", SEED);
        assertEquals(1, after.code());
        assertTrue(after.err().contains("--fail-on-rows goes before the SQL"), after.err());
        Run typo = Run.bufq("-c", "sql --fail-on-row select 1 as x", SEED);
        assertEquals(1, typo.code());
        assertTrue(typo.err().contains("unexpected '--fail-on-row'") && typo.err().contains("did you mean '--fail-on-rows'?"), typo.err());
        Run before = Run.bufq("--bail", "-c", "sql --fail-on-rows select 1 as x", SEED);
        assertEquals(1, before.code());
        assertTrue(before.err().contains("the query returned 1 row"), before.err());
    }

    @Test
    void deepNestingIsRefusedBeforeDuckDbSeesIt() {
        String deep = "select " + "(".repeat(50_000) + "1" + ")".repeat(50_000);
        Run r = Run.bufq("-c", "sql " + deep, "-c", "sql select 2 as after", SEED);
        assertTrue(r.err().contains("brackets nested more than 128 deep"), r.err().substring(0, Math.min(400, r.err().length())));
        assertTrue(r.out().contains("after"), "the run went on: " + r.out());
        String json = "select json_structure('" + "[".repeat(50_000) + "]".repeat(50_000) + "')";
        Run j = Run.bufq("-c", "sql " + json, SEED);
        assertEquals(1, j.code());
        assertTrue(j.err().contains("nested more than 128 deep"), j.err().substring(0, Math.min(400, j.err().length())));
    }

    @Test
    void aDeepJsonFileUnderAnAllowedFolderDoesNotEndTheProcess(@TempDir Path tmp) throws Exception {
        Path deep = Files.writeString(tmp.resolve("deep.json"), "[".repeat(50_000) + "]".repeat(50_000) + "\n");
        Run r = Run.bufq("--format", "tsv", "--sql-allow", tmp.toString(), "-c", "sql select count(*) as n from read_json('" + deep + "')",
                "-c", "sql select 5 as after", SEED);
        assertTrue(r.out().contains("after"), "the run went on: " + r.out() + r.err());
    }

    @Test
    void theTimeLimitStopsAStatement() {
        Run r = Run.bufq("-c", "set timeout 0.5", "-c", "sql select count(*) from range(1000000000000) a", "-c", "sql select 3 as after", SEED);
        assertTrue(r.err().contains("query stopped after the 0.5 s time limit"), r.err() + r.out());
        assertTrue(r.out().contains("after"), r.out());
    }

    @Test
    void aFifoUnderAnAllowedFolderDoesNotHoldTheShell(@TempDir Path tmp) throws Exception {
        Path fifo = tmp.resolve("pipe.csv");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo is there");
        Run r = Run.bufq("--sql-allow", tmp.toString(), "-c", "set timeout 1", "-c", "sql select * from read_csv('" + fifo + "')",
                "-c", "sql select 4 as after", SEED);
        assertTrue(r.err().contains("query stopped after the 1 s time limit"), r.err());
        assertTrue(r.out().contains("after"), "the shell went on: " + r.out());
        // The read left behind ends when the FIFO does.
        try (var w = Files.newOutputStream(fifo)) {
            w.write("x\n1\n".getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aBigResultIsCutAtTheCapAndSaysSo() {
        StringBuilder wide = new StringBuilder("sql select range as c0");
        for (int i = 1; i < 50; i++) wide.append(", range as c").append(i);
        Run r = Run.bufq("--format", "csv", "-c", "set timeout 0", "-c", wide + " from range(150000)", SEED);
        assertEquals(0, r.code(), r.err());
        long rows = ResultTable.MAX_CELLS / 50;
        assertEquals(rows + 1, r.out().lines().count(), "the cap's rows and a header");
        assertTrue(r.err().contains("more rows than the " + rows + " read"), r.err());
    }

    @Test
    void blobsShowAsHexAndDuplicateNamesAsDistinctKeys() {
        Run r = Run.bufq("--format", "json", "-c", "sql select '\\xAA\\x00'::blob as b, 1 as x, 2 as x", SEED);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\\\\xaa\\\\x00"), r.out());
        assertFalse(r.out().contains("[B@") || r.out().contains("Blob"), r.out());
        assertTrue(r.out().contains("\"x\"") && r.out().contains("\"x_2\""), r.out());
    }

    @Test
    void theSpillFolderAndTheNativeLibraryAreNotLeftBehind() throws Exception {
        Run r = Run.bufq("-c", "sql select 1", SEED);
        assertEquals(0, r.code(), r.err());
        Path own = Path.of(System.getProperty("java.io.tmpdir"), "bufq-" + System.getProperty("user.name"));
        try (Stream<Path> s = Files.list(own)) {
            String pid = "." + ProcessHandle.current().pid() + "@";
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().contains(pid)).toList(), "this run's spill folder is gone");
        }
        if (Files.isReadable(Path.of("/proc/self/maps")))
            assertEquals(List.of(), NativeLibrary.mapped(), "the driver's copy of its library is deleted once loaded");
    }

    @Test
    void exportsTouchOnlyWhatTheyWrite(@TempDir Path tmp) throws Exception {
        Run memory = Run.bufq("-c", "export duckdb :memory:", SEED);
        assertEquals(1, memory.code());
        assertTrue(memory.err().contains("takes a database file"), memory.err());

        Path db = tmp.resolve("mine.duckdb");
        Run.client(db.toString(), "create table \"values\" as select 1 as run_id, 'mine' as what; select 1");
        Run mine = Run.bufq("-c", "export duckdb " + db, SEED);
        assertEquals(1, mine.code());
        assertTrue(mine.err().contains("did not make"), mine.err());
        assertEquals(List.of(List.of(1, "mine")), Run.client(db.toString(), "select * from \"values\""), "the user's table is as it was");

        Path folder = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(folder.resolve("notes.txt"), "mine");
        Run foreign = Run.bufq("-c", "export parquet " + folder + " --force", SEED);
        assertEquals(1, foreign.code());
        assertTrue(foreign.err().contains("holds notes.txt, which export parquet does not write"), foreign.err());
        assertEquals("mine", Files.readString(folder.resolve("notes.txt"), StandardCharsets.UTF_8));

        for (String key : List.of("module", "needs_bytes")) {
            Run column = Run.bufq("-c", "export parquet " + tmp.resolve("p") + " --partition " + key + "=x", SEED);
            assertEquals(1, column.code());
            assertTrue(column.err().contains("'" + key + "' is a column of the tables"), column.err());
        }
        Run escape = Run.bufq("-c", "export parquet " + tmp.resolve("p") + " --partition night=a\u001b[31mb", SEED);
        assertEquals(1, escape.code());
        assertFalse(escape.err().contains("\u001b"), "no escape reaches the terminal raw");

        Path whole = tmp.resolve("whole");
        assertEquals(0, Run.bufq("-c", "export parquet " + whole, SEED).code());
        assertEquals(0, Run.bufq("-c", "export parquet " + whole + " --force", SEED).code());
        try (Stream<Path> s = Files.list(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary folder is left");
        }
    }
}
