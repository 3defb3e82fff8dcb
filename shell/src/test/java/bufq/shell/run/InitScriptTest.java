package bufq.shell.run;

import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.Status;
import bufq.shell.api.ScriptEngine;
import bufq.shell.run.InitScript;
import bufq.shell.run.Shell;
import bufq.api.Extensions;
import bufq.shell.command.Commands;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The rule for running a deferred init.js: exactly the statements that may depend on what it
 * registers (fields, tiling models, checks, rules) or that run JavaScript run it first; the others
 * leave it, and the script engine, alone. On the bundled example with the real query engine.
 */
class InitScriptTest {
    /** Counts runInit; runs nothing else (a js statement "succeeds" without JavaScript). */
    static final class Counting implements ScriptEngine {
        int inits;
        @Override public String extension() { return "js"; }
        @Override public Status eval(String code, String sourceName) { return Status.OK; }
        @Override public Status runFile(Path file) { return Status.OK; }
        @Override public void runInit() { inits++; }
        @Override public boolean incomplete(String code) { return false; }
        @Override public List<Extensions.Check> checks() { return List.of(); }
        @Override public void cancel() {}
        @Override public void close() {}
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // statement                                    | runs init.js
            "js 1 + 1                                       | true",
            "fields values                                  | true",
            "check                                          | true",
            "advise                                         | true",
            "set tiling page64k                             | true",
            "values where waste > 0                         | true",
            "values show waste                              | true",
            "why values where waste > 0                     | true",
            "whatif drop where waste > 0                    | true",
            "whatif tiling page64k                          | true",
            "whatif drop where size > 1MiB; values where waste > 0 | true",
            "summary                                        | false",
            "peak                                           | false",
            "padding                                        | false",
            "help                                           | false",
            "values where size > 1MiB order by name         | false",
            "values wher size > 0                           | false",
            "set tiling none                                | false",
            "set maxrows 5                                  | false",
            "why values where size > 1MiB                   | false",
            "whatif drop where size > 1MiB                  | false",
            "whatif tiling tpu                              | false",
    })
    void runsBeforeExactlyTheStatementsThatMayNeedIt(String statement, boolean needs) throws Exception {
        Counting scripts = new Counting();
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        Shell s = new Shell(new DefaultEngine(), Commands.standard(), session -> scripts,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new Env(Map.of(), false));
        s.modules().load(List.of(Path.of(System.getProperty("bufq.root", "..")).toAbsolutePath().normalize().resolve("examples/jax-mlp")));
        s.deferInit();
        s.execute(statement);
        assertEquals(needs ? 1 : 0, scripts.inits, statement + "\n" + err.toString(StandardCharsets.UTF_8));
        s.execute(statement);
        s.execute("js 1");
        assertEquals(1, scripts.inits, "it runs once, and a script always has it");
    }

    /** An idle prompt never runs init.js beside a statement: the statement came first, and runs it if it needs it. */
    @org.junit.jupiter.api.Test
    void anIdlePromptLeavesItToARunningStatement() throws Exception {
        Counting scripts = new Counting();
        Shell s = new Shell(new DefaultEngine(), Commands.standard(), session -> scripts,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new Env(Map.of(), false));
        InitScript init = new InitScript(s::printer, () -> scripts);
        init.defer();
        init.before();   // a statement that needs no script is running
        init.runIdle(shown -> fail("nothing ran: " + shown));
        assertEquals(0, scripts.inits);
        init.after();
        init.runIdle(shown -> { });
        assertEquals(1, scripts.inits, "idle again, with no statement running");
        init.runIdle(shown -> { });
        assertEquals(1, scripts.inits, "once");
    }
}
