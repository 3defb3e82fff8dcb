package bufq.shell.sql;

import bufq.testing.Corpus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code sql} and {@code --sql}: DuckDB over the loaded modules' tables, printed through bufq's formats. */
class SqlCommandTest {
    static final String SEED = Run.root().resolve("examples/seeds/004_0cb419b3147a3cb6.txt").toString();

    @Test
    void fromValuesAsUsersTypeItAgreesWithTheQueryLanguage() {
        Run sql = Run.bufq("--format", "tsv", "--sql", "select count(*) as n, sum(size) as size from values", SEED);
        Run own = Run.bufq("--format", "tsv", "-c", "values show count(), sum(size)", SEED);
        assertEquals(0, sql.code(), sql.err());
        assertEquals(0, own.code(), own.err());
        assertEquals(List.of("25", "129640"), List.of(sql.tsv().get(0)));
        assertEquals(List.of(own.tsv().get(0)), List.of(sql.tsv().get(0)));
        // VALUES is an SQL keyword: the table still reads as typed, in any case, qualified or aliased.
        Run mixed = Run.bufq("--format", "tsv", "--sql", "SELECT count(Values.id) FROM Values JOIN values w ON w.id = Values.id", SEED);
        assertEquals("25", mixed.tsv().get(0)[0], mixed.err());
    }

    /** Two programs of one dump named alike stay two in {@code group by module}; {@code program} has the plain name. */
    @Test
    void moduleNamesOneProgram() {
        String dump = Corpus.require("oom-cpu/pair/dump").toString();
        Run r = Run.bufq("--format", "tsv", "--sql", "select module, program, count(*) as n from values where program = 'jit__lambda'"
                + " group by module, program order by module", dump);
        assertEquals(0, r.code(), r.err());
        List<String[]> rows = r.tsv();
        assertEquals(2, rows.size(), r.out());
        assertEquals(List.of("jit__lambda#0004", "jit__lambda"), List.of(rows.get(0)).subList(0, 2));
        assertEquals(List.of("jit__lambda#0008", "jit__lambda"), List.of(rows.get(1)).subList(0, 2));
        // a name no other program of its dump has is the module as it is
        Run one = Run.bufq("--format", "tsv", "--sql", "select distinct module from values", SEED);
        assertEquals("004_0cb419b3147a3cb6", one.tsv().get(0)[0], one.out());
    }

    @Test
    void answersAJoinAcrossTwoLoadedRuns() {
        String a = Corpus.require("jax-0.10.2/pairs/transformer-4layer").toString();
        String again = Corpus.require("jax-0.10.2/pairs/transformer-4layer-again").toString();
        String remat = Corpus.require("jax-0.10.2/pairs/transformer-4layer-remat").toString();
        Run r = Run.bufq("--format", "tsv", "--sql",
                "select regexp_extract(b.dump, '[^/]+$') as run, a.fingerprint = b.fingerprint as same_program, "
                        + "b.needs_bytes - a.needs_bytes as grew_bytes, "
                        + "(select count(*) from values va join values vb on va.name = vb.name and va.size = vb.size "
                        + " where va.dump = a.dump and vb.dump = b.dump) as values_paired "
                        + "from modules a join modules b using (module) where a.dump = '" + a + "' and b.dump <> a.dump order by run",
                a, again, remat);
        assertEquals(0, r.code(), r.err());
        List<String[]> rows = r.tsv();
        assertEquals(2, rows.size(), r.out());
        assertEquals(List.of("transformer-4layer-again", "true", "0"), List.of(rows.get(0)).subList(0, 3));
        assertEquals(List.of("transformer-4layer-remat", "false"), List.of(rows.get(1)).subList(0, 2));
        // The remat build's needs grew by what its modules' own figures say (146.9 to 151.9 MiB).
        assertTrue(Long.parseLong(rows.get(1)[2]) > 5_000_000, r.out());
        Run values = Run.bufq("--format", "tsv", "-c", "values show count()", again);
        assertEquals(values.tsv().get(0)[0], rows.get(0)[3], "every value of a recompilation pairs with its twin");
    }

    @Test
    void anErrorIsShownUnderTheStatementWithACaret() {
        Run r = Run.bufq("--sql", "select sizee from values", SEED);
        assertEquals(1, r.code());
        assertTrue(r.err().contains("select sizee from values\n       ^^^^^\nbinder error: referenced column \"sizee\" not found"), r.err());
        assertTrue(r.err().contains("Candidate bindings: \"size\""), r.err());
        Run two = Run.bufq("--sql", "select size\nfrom values\nwhere nope > 1", SEED);
        assertTrue(two.err().contains("where nope > 1\n      ^^^^\n"), two.err());
        Run keyword = Run.bufq("--sql", "select end from values", SEED);
        assertTrue(keyword.err().contains("'end' is an SQL keyword: write the column as \"end\""), keyword.err());
        Run quoted = Run.bufq("--format", "tsv", "--sql", "select max(\"end\") as e from values", SEED);
        assertEquals(0, quoted.code(), quoted.err());
    }

    @Test
    void failOnRowsMakesAGuard() {
        Run none = Run.bufq("--bail", "-c", "sql --fail-on-rows select module from modules where needs_bytes > 1e12", SEED);
        assertEquals(0, none.code(), none.err());
        Run some = Run.bufq("--bail", "-c", "sql --fail-on-rows select module, needs_bytes from modules where needs_bytes > 0", "-c", "summary", SEED);
        assertEquals(1, some.code());
        assertTrue(some.out().contains("004_0cb419b3147a3cb6"), "the rows that failed are shown: " + some.out());
        assertTrue(some.err().contains("error: sql --fail-on-rows: the query returned 1 row"), some.err());
        assertFalse(some.out().contains("peak_bytes"), "--bail stopped before summary: " + some.out());
    }

    @Test
    void resultsPrintThroughBufqsFormats() {
        Run table = Run.bufq("--sql", "select sum(size) as size, count(*) as n, 0.5 as half, [1, 2] as dims from values", SEED);
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("126.6KiB"), "a byte column shows as bytes: " + table.out());
        Run json = Run.bufq("--format", "json", "--sql", "select sum(size) as size, 'x' as s, [1, 2] as dims, true as b from values", SEED);
        assertEquals("[\n  {\"size\": 129640, \"s\": \"x\", \"dims\": [1, 2], \"b\": true}\n]", json.out().strip());
    }

    @Test
    void runsWithNoModuleLoaded() {
        Run r = Run.bufq("--format", "tsv", "--sql", "select 42 as answer, (select count(*) from modules) as modules");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("42", "0"), List.of(r.tsv().get(0)));
        Run usage = Run.bufq("-c", "sql");
        assertEquals(1, usage.code());
        assertTrue(usage.err().contains("usage: sql [--fail-on-rows] SELECT ..."), usage.err());
    }
}
