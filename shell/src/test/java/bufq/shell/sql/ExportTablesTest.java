package bufq.shell.sql;

import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code export parquet} and {@code export duckdb}: files a second DuckDB client reads, and their rules. */
class ExportTablesTest {
    static final String DIR = Corpus.require("jax-0.10.2/multi-module-dir-analysis-off").toString();

    @Test
    void parquetGoesUnderItsHivePartitionAndReadsBackTyped(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("fleet");
        Run r = Run.bufq("-c", "export parquet " + out + " --partition night=2026-12-01 --partition model=mlp", Run.root() + "/examples/jax-mlp");
        assertEquals(0, r.code(), r.err());
        Path part = out.resolve("night=2026-12-01/model=mlp");
        assertTrue(r.err().contains("wrote " + part + ": 1 module; rows: values "), r.err());
        try (Stream<Path> s = Files.list(part)) {
            assertEquals(List.of("allocations.parquet", "instructions.parquet", "modules.parquet", "runs.parquet", "steps.parquet",
                    "uses.parquet", "values.parquet"), s.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file is left");
        }
        List<List<Object>> rows = Run.client(null, "select night, model, module, typeof(size), typeof(live_out), typeof(dims), typeof(uses) "
                + "from read_parquet('" + out + "/*/*/values.parquet', hive_partitioning = true) limit 1");
        assertEquals(List.of("2026-12-01", "mlp", "jit_f", "BIGINT", "BOOLEAN", "BIGINT[]", "VARCHAR[]"),
                rows.get(0).stream().map(String::valueOf).toList());
        Run again = Run.bufq("-c", "export parquet " + out + " --partition night=2026-12-01 --partition model=mlp", Run.root() + "/examples/jax-mlp");
        assertEquals(1, again.code());
        assertTrue(again.err().contains(part.resolve("values.parquet") + " exists; add --force to replace it"), again.err());
        assertEquals(0, Run.bufq("-c", "export parquet " + out + " --partition night=2026-12-01 --partition model=mlp --force",
                Run.root() + "/examples/jax-mlp").code());
    }

    @Test
    void everyTableCarriesTheVersionsACaptureRecordsAndNullElsewhere(@TempDir Path tmp) throws Exception {
        // The checkout's copy of the capture: its /host:metadata plane names jax_version and jaxlib_version 0.10.2.
        String capture = Run.root().resolve("query-engine/src/test/resources/corpus/jax-0.10.2-proto/profile/profile.xplane.pb").toString();
        Run r = Run.bufq("-c", "export parquet " + tmp.resolve("pq"), "-c", "export duckdb " + tmp.resolve("all.duckdb"),
                capture, Run.root() + "/examples/jax-mlp");
        assertEquals(0, r.code(), r.err());
        String versions = "select kind, jax_version, jaxlib_version, count(*) from TABLE group by all order by kind";
        List<List<Object>> expected = List.of(List.of("profile", "0.10.2", "0.10.2", 7L), java.util.Arrays.asList("text", null, null, 1L));
        assertEquals(expected, Run.client(null, versions.replace("TABLE", "read_parquet('" + tmp.resolve("pq/modules.parquet") + "')")));
        assertEquals(expected, Run.client(tmp.resolve("all.duckdb").toString(), versions.replace("TABLE", "modules")));
        // Every other table leads with the same keys: a value of the capture knows its versions.
        List<List<Object>> values = Run.client(null, "select distinct jax_version, jaxlib_version from read_parquet('"
                + tmp.resolve("pq/values.parquet") + "') where fingerprint in (select fingerprint from read_parquet('"
                + tmp.resolve("pq/modules.parquet") + "') where kind = 'profile')");
        assertEquals(List.of(List.of("0.10.2", "0.10.2")), values);
    }

    /**
     * The modules table names a module as the shell does: its handle, program and current are the
     * modules entity's, one column each; module beside them is the key across runs, which differs.
     */
    @Test
    void theModulesTableNamesAModuleAsTheShellDoes(@TempDir Path tmp) throws Exception {
        String capture = Run.root().resolve("query-engine/src/test/resources/corpus/jax-0.10.2-proto/profile/profile.xplane.pb").toString();
        Path db = tmp.resolve("m.duckdb");
        Run r = Run.bufq("--format", "tsv", "-c", "modules show handle, program, current", "-c", "export duckdb " + db,
                capture, Run.root() + "/examples/jax-mlp");
        assertEquals(0, r.code(), r.err());
        List<String> shown = r.out().lines().skip(1).sorted().toList();
        List<List<Object>> table = Run.client(db.toString(), "select handle, program, current, module from modules");
        assertEquals(shown, table.stream().map(row -> row.get(0) + "\t" + row.get(1) + "\t" + row.get(2)).sorted().toList());
        assertEquals(8, shown.size(), r.out());
        // the capture's first jit__lambda keeps its plain handle; its key across runs carries XLA's number
        assertTrue(table.contains(List.of("jit__lambda", "jit__lambda", false, "jit__lambda#0010")), table.toString());
    }

    @Test
    void namedTablesOnlyAndTheirMistakes(@TempDir Path tmp) throws Exception {
        Run r = Run.bufq("-c", "export parquet " + tmp + " modules allocations", DIR);
        assertEquals(0, r.code(), r.err());
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(List.of("allocations.parquet", "modules.parquet"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertEquals(9L, Run.client(null, "select count(*) from '" + tmp + "/modules.parquet'").get(0).get(0));
        Run typo = Run.bufq("-c", "export parquet " + tmp + " modulez", DIR);
        assertTrue(typo.err().contains("no table 'modulez'; expected one of values, allocations"), typo.err());
        Run slash = Run.bufq("-c", "export parquet " + tmp + " --partition run=../x", DIR);
        assertTrue(slash.err().contains("a value is one folder name"), slash.err());
        Run bare = Run.bufq("-c", "export parquet " + tmp + " --partition run", DIR);
        assertTrue(bare.err().contains("--partition takes KEY=VALUE"), bare.err());
        Run none = Run.bufq("-c", "export parquet " + tmp.resolve("x"));
        assertTrue(none.err().contains("no module loaded"), none.err());
        assertFalse(Files.exists(tmp.resolve("x")));
    }

    @Test
    void duckdbAppendsARunAtATime(@TempDir Path tmp) throws Exception {
        Path db = tmp.resolve("fleet.duckdb");
        Run first = Run.bufq("-c", "export duckdb " + db + " --partition night=2026-11-30", DIR);
        assertEquals(0, first.code(), first.err());
        assertTrue(first.err().contains("appended run 1 to " + db + ": 9 modules; rows: values 220, allocations 59, instructions 0"), first.err());
        Run second = Run.bufq("-c", "export duckdb " + db + " --partition night=2026-12-01", DIR);
        assertTrue(second.err().contains("appended run 2 to "), second.err());
        List<List<Object>> runs = Run.client(db.toString(), "select run_id, \"partition\", modules, bufq_version from runs order by run_id");
        assertEquals("[[1, night=2026-11-30, 9, 0.1.0], [2, night=2026-12-01, 9, 0.1.0]]", runs.toString());
        List<List<Object>> perRun = Run.client(db.toString(), "select run_id, count(*), sum(size) from allocations group by run_id order by run_id");
        assertEquals(perRun.get(0).subList(1, 3), perRun.get(1).subList(1, 3), "the same dump twice: the same rows");
    }

    @Test
    void anOlderDatabaseGainsTheColumnsItLacks(@TempDir Path tmp) throws Exception {
        Path db = tmp.resolve("old.duckdb");
        assertEquals(0, Run.bufq("-c", "export duckdb " + db + " modules", DIR).code());
        Run.client(db.toString(), "select 1; alter table modules drop column needs_bytes; select 1");
        Run r = Run.bufq("-c", "export duckdb " + db + " modules", DIR);
        assertEquals(0, r.code(), r.err());
        assertEquals("[[1, 0], [2, 9]]", Run.client(db.toString(),
                "select run_id, count(needs_bytes) from modules group by run_id order by run_id").toString());
    }

    @Test
    void aFailedAppendAddsNothing(@TempDir Path tmp) throws Exception {
        Path db = tmp.resolve("typed.duckdb");
        assertEquals(0, Run.bufq("-c", "export duckdb " + db + " modules", DIR).code());
        // A column of another type: the insert fails half-way, and the transaction leaves run 1 alone.
        Run.client(db.toString(), "select 1; alter table modules alter needs_bytes type date using null; select 1");
        Run r = Run.bufq("-c", "export duckdb " + db + " modules", DIR);
        assertEquals(1, r.code());
        assertTrue(r.err().contains("cannot append to " + db), r.err());
        assertEquals("[[1, 1]]", Run.client(db.toString(), "select count(*), max(run_id) from runs").toString());
    }
}
