package bufq.shell.session;

import bufq.shell.run.Shell;
import bufq.shell.run.StatementRunner;
import bufq.shell.cli.Bufq;
import bufq.table.ColumnType;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A statement is compiled once and kept: asked what it reads, whether it waits for init.js, then
 * run, it is parsed once (it used to be parsed five times: its needs at the load, whether it
 * resolved, its needs again, the run), and each condition of a command ({@code whatif}, {@code fit})
 * once. Its kind is decided in one place, in any case: {@code
 * VALUES where ...} is a query, and so is the argument of {@code why VALUES where ...}. On the
 * bundled example with the real engine.
 */
class OneCompileTest {
    private static final Path MLP = Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize()
            .resolve("examples/jax-mlp");

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
    private final DefaultEngine engine = new DefaultEngine();

    private Shell shell() {
        Shell s = Bufq.shell(engine, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        assertEquals(Status.OK, s.execute("load " + MLP), err.toString(StandardCharsets.UTF_8));
        out.reset();
        return s;
    }

    private String out() { return out.toString(StandardCharsets.UTF_8); }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // statement                                                   | parses
            "values where size > 1KiB order by size desc limit 3             | 1",
            "VALUES where size > 1KiB order by size desc limit 3             | 1",
            "Values show count(), sum(size)                                  | 1",
            "allocations order by size desc limit 2                          | 1",
            "modules where values > 0                                        | 1",
            "why values where size > 1KiB order by size desc limit 1         | 1",
            "why VALUES where size > 1KiB order by size desc limit 1         | 1",
            "whatif drop where size > 1KiB                                   | 1",
            "whatif drop where size > 1KiB; scale where size < 1KiB by 0.5   | 2",
            "whatif drop where size > 1KiB; values where size > 0 limit 1    | 2",
            "summary                                                         | 0",
            "why 1                                                           | 0",
    })
    void aStatementIsParsedOnce(String statement, int parses) {
        Shell s = shell();
        long before = engine.parses();
        assertEquals(Status.OK, s.execute(statement), statement + "\n" + err.toString(StandardCharsets.UTF_8));
        assertTrue(!out().isEmpty(), statement + " printed a result");
        assertEquals(parses, engine.parses() - before, statement);
    }

    /** fit's condition on modules selects through the same one compile. */
    @Test
    void fitsConditionIsParsedOnce() {
        Shell s = shell();
        assertEquals(Status.OK, s.execute("set capacity 16GiB"), err.toString(StandardCharsets.UTF_8));
        long before = engine.parses();
        assertEquals(Status.OK, s.execute("fit where values > 0"), err.toString(StandardCharsets.UTF_8));
        assertTrue(out().contains("needs_bytes"), out());
        assertEquals(1, engine.parses() - before);
        assertEquals(Status.ERROR, s.execute("fit where valuez > 0"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown field 'valuez'"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aBatchRunCompilesItsStatementsOnceForTheLoadAndTheRun() {
        List<String> statements = List.of("values where size > 1KiB order by size desc limit 2",
                "why VALUES where size > 1KiB order by size desc limit 1", "summary", "VALUES show count()");
        String[] argv = new String[statements.size() * 2 + 1];
        for (int i = 0; i < statements.size(); i++) {
            argv[2 * i] = "-c";
            argv[2 * i + 1] = statements.get(i);
        }
        argv[argv.length - 1] = MLP.toString();
        int code = new Bufq(new Env(Map.of(), false), () -> engine, in -> null).run(argv, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(out().contains("what it is: "), out());
        assertEquals(3, engine.parses(), "one parse each for the three statements that hold a query");
    }

    /** In any case the argument is a query, and the same one. */
    @Test
    void whyTakesAQueryInAnyCase() {
        Shell s = shell();
        assertEquals(Status.OK, s.execute("why values where size > 1KiB order by size desc limit 2"), err.toString(StandardCharsets.UTF_8));
        String lower = out();
        out.reset();
        assertEquals(Status.OK, s.execute("why VALUES where size > 1KiB order by size desc limit 2"), err.toString(StandardCharsets.UTF_8));
        assertEquals(lower, out());
        assertEquals(2, lower.split("what it is: ", -1).length - 1, lower);
        assertEquals(Status.ERROR, s.execute("why STEPS where step > 1"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("why takes a query on values, not on steps"), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A statement compiled before a script defines the field it names resolves when it runs: it is
     * checked again against the new catalog, from the tree it parsed, and not parsed again.
     */
    @Test
    void aFieldDefinedAfterTheCompileResolvesWithoutASecondParse() throws Exception {
        Shell s = shell();
        StatementRunner.Statement statement = s.compile("values show id, twice order by id limit 2");
        assertEquals(List.of("twice"), ((StatementRunner.Statement.Query) statement).query().unresolved());
        assertTrue(statement.usesScripts(), "init.js may define it");
        assertNotEquals(null, ((StatementRunner.Statement.Query) statement).query().diagnostic());
        engine.addField("values", "twice", ColumnType.INT, "the id, twice", v -> 2 * ((bufq.model.HloValue) v).id());
        assertEquals(Status.OK, s.execute(statement), err.toString(StandardCharsets.UTF_8));
        assertTrue(out().contains("twice"), out());
        assertEquals(1, engine.parses());
    }

    /** Without the field the kept statement fails with its diagnostic, as a query that does not compile does. */
    @Test
    void anUnresolvedStatementFailsWithItsDiagnostic() {
        Shell s = shell();
        assertEquals(Status.ERROR, s.execute("values show nosuchfield"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown field 'nosuchfield'"), err.toString(StandardCharsets.UTF_8));
        assertEquals(1, engine.parses());
    }
}
