package bufq.shell.cli;

import bufq.shell.repl.JLineRepl;
import bufq.shell.session.DefaultEngine;
import bufq.shell.session.Env;
import bufq.shell.session.Shell;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The interactive path walked once, in memory, by the run that makes the launcher's class-data
 * archive for interactive sessions ({@link #PROPERTY}): a session types a few statements, completes
 * a word and leaves, so the archive holds the line editor's classes and lambdas as well as the
 * reader's, and an interactive session starts from it as a batch run starts from its own (issue 34).
 * Its history and settings live in a directory of its own, removed after; it prints nothing.
 */
final class Rehearsal {
    /** System property the launcher sets ({@code true}) on the run that makes the interactive archive. */
    static final String PROPERTY = "bufq.rehearse";

    private Rehearsal() {}

    /** What the rehearsal types: statements, a completion (Tab), a line dropped (Ctrl-U). */
    static final String KEYS = "help\nvalues where size > 0 order by size desc limit 3\nsumm\t\npe\t\u0015";

    static void run() {
        Path state;
        try {
            state = Files.createTempDirectory("bufq-rehearsal");
        } catch (IOException e) {
            return;   // no archive of the line editor's classes: a slower prompt, nothing worse
        }
        try {
            PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
            Env env = new Env(Map.of("XDG_STATE_HOME", state.toString(), "HOME", state.toString()), true);
            Shell shell = Bufq.shell(new DefaultEngine(), nowhere, nowhere, env);
            JLineRepl.rehearse(shell, KEYS);
            shell.close();
        } catch (IOException | RuntimeException e) {
            // as above
        } finally {
            try (Stream<Path> files = Files.walk(state)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(f);
            } catch (IOException e) {
                // a temporary directory left behind
            }
        }
    }
}
