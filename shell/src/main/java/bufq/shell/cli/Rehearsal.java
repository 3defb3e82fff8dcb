package bufq.shell.cli;

import bufq.shell.repl.JLineRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Engine;
import bufq.shell.session.Env;
import bufq.shell.run.Shell;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the run that makes one of the launcher's class-data archives ({@link ArchiveNotice#PROPERTY})
 * does after its own statements, so that the archive holds the classes later runs need, whatever
 * this run did: it reads the bundled four-file example and runs {@code summary} and a
 * query on it (an archive made by a first {@code -c summary} left the query's classes out, and a
 * query run then loaded them from the jar: 2 MiB more RSS). For the interactive archive ({@link
 * #PROPERTY}) it also walks a session in memory: a few statements typed, a word completed, a line
 * dropped, so the archive holds the line editor's classes and lambdas too. It prints nothing; the
 * session's history lives in a directory of its own, removed after.
 */
final class Rehearsal {
    /** System property the launcher sets ({@code true}) on the run that makes the interactive archive. */
    static final String PROPERTY = "bufq.rehearse";

    /** The statements run on the example. */
    static final List<String> STATEMENTS = List.of("summary", "values where live at peak show count(), sum(size)");

    /** What the session types: statements, a completion (Tab), a line dropped (Ctrl-U). */
    static final String KEYS = "help\nvalues where size > 0 order by size desc limit 3\nsumm\t\npe\t\u0015";

    private Rehearsal() {}

    /** @param session whether to walk an interactive session too */
    static void run(boolean session) {
        // The session's history goes to a directory of its own, named without SecureRandom (as
        // createTempDirectory would): its provider's classes would go into the archive for nothing.
        Path state = Path.of(System.getProperty("java.io.tmpdir"), "bufq-rehearsal-" + ProcessHandle.current().pid());
        try {
            PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
            Env env = new Env(session ? Map.of("XDG_STATE_HOME", state.toString(), "HOME", state.toString()) : Map.of(), session);
            Shell shell = Bufq.shell(new DefaultEngine(), nowhere, nowhere, env);
            String home = System.getenv("BUFQ_HOME");
            Path example = home == null ? null : Path.of(home, "examples", "jax-mlp");
            if (example != null && Files.isDirectory(example)) {
                shell.modules().load(List.of(example));
                for (String s : STATEMENTS) shell.execute(s);
            }
            if (session) JLineRepl.rehearse(shell, KEYS);
            shell.close();
        } catch (IOException | RuntimeException | Engine.Failure e) {
            // an archive without these classes: slower starts, nothing worse
        } finally {
            if (session) remove(state);
        }
    }

    private static void remove(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }
}
