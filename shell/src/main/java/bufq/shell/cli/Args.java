package bufq.shell.cli;

import bufq.format.Formatters;
import bufq.lang.NearNames;

import java.util.ArrayList;
import java.util.List;

/**
 * The parsed command line: {@code bufq [--format F] [-c TEXT]... [-f FILE] [--bail] [PATH...]}.
 *
 * @param actions {@code -c} texts and {@code -f} files in the order given
 * @param sqlAllowed the folders {@code --sql-allow} lets {@code sql} reach
 */
public record Args(String format, List<Action> actions, boolean bail, boolean help, boolean version, List<String> paths,
                   boolean noInit, List<Preset> presets, String module, List<String> sqlAllowed) {
    /** A setting given on the command line ({@code --capacity 16GiB} is {@code set capacity 16GiB}), set before loading. */
    public record Preset(String setting, String value) {}

    /** Something to run before exiting: a statement ({@code -c}) or a script file ({@code -f}). */
    public record Action(boolean file, String text) {}

    /** A bad command line; the message is one line. Exit code 2. */
    public static final class UsageException extends Exception {
        public UsageException(String message) { super(message, null, false, false); }
    }

    public static final String USAGE = """
            Usage: bufq [--format table|vertical|markdown|csv|tsv|json|ndjson] [-c TEXT]... [-f FILE] [--oom FILE] [--sql TEXT] [--bail]
                        [--no-init] [--capacity SIZE] [--device NAME] [--reserved SIZE] [--module NAME] [PATH...]

            Query XLA buffer-assignment dumps. PATH is a *-buffer-assignment.txt file (its -values,
            -live-range and -memory-usage-report siblings are joined), any one of those siblings, an
            .hlo.pb (its -memory-usage-report.pb sibling is joined), a bare buffer-assignment .pb, a
            profile's .xplane.pb, a dump directory, or a .gz of a file. The first module loaded is current.

            Out of memory? Three steps, on the dump directory of the run (XLA_FLAGS=--xla_dump_to=DIR):
              bufq --oom err.log DIR            which program, allocation and values the message is about
              bufq --device v5e -c fit DIR      whether the programs fit the device, alone and together
                                                (the run's device: 'help device' lists them; a CPU run
                                                takes --capacity host, this machine's memory)
              bufq -c advise DIR                what would lower the peak, each change measured with whatif

            Options:
              --format NAME  output format: table (default), vertical, markdown, csv, tsv, json, ndjson;
                             in json a run prints one document: a single result as is, several as
                             an array of the results in order (statements that print none add nothing)
              -c TEXT        run a query or command and print its result; repeatable; exit after the last
              -f FILE        run a script of queries and commands (.bq: one per line, # comments,
                             a line ending in \\ or an unfinished query continues); a FILE
                             ending in .js runs as JavaScript (scripts/README.md)
              --oom FILE     join the out-of-memory message in FILE to the dumps (as -c 'oom FILE';
                             FILE - reads stdin)
              --sql TEXT     run DuckDB SQL over the loaded modules' tables (as -c 'sql TEXT'):
                             joins across modules and runs, read_parquet() of exported runs
              --sql-allow DIR
                             let sql read and write files under DIR (repeatable; read_parquet of
                             exported runs): sql reaches no other file, and no script can widen it
              --bail         stop at the first failing statement
              --capacity SIZE, --device NAME, --reserved SIZE
                             what 'fit' and 'forecast fit' check against: set capacity, device,
                             reserved (e.g. --capacity 16GiB, --device v5e; 'help device' lists
                             devices; --capacity host: this machine's memory, unlimited: no bound)
              --module NAME  the module commands on one module (advise, peak, why, ...) run on; without it,
                             of several loaded they take the one the --oom message names, else the
                             one with the largest needs_bytes, and say which on stderr
              --no-init      do not run $XDG_CONFIG_HOME/bufq/init.js (~/.config/bufq/init.js);
                             without it, init.js runs on first need: before the first script,
                             fields, check, advise, set tiling of a model not built in, or a
                             query naming a field bufq does not know (the shell: when idle)
              -h, --help     show this help
              --version      show the version

            Without -c or -f, bufq reads statements from stdin when it is not a terminal (no prompt),
            and opens the interactive shell when it is. Type 'help' there, or see 'bufq -c help'.

            Exit codes:
              0  success
              1  a query or command failed
              2  usage error (bad option, unreadable -f script)
              3  a dump could not be loaded

            Environment: NO_COLOR disables colour; BUFQ_DEBUG=1 prints stack traces of internal errors.
            The ./bufq launcher also reads BUFQ_JAVA_OPTS (JVM options, e.g. -Xmx8g for a module of
            millions of values), BUFQ_NO_CDS=1 (no class-data archives) and BUFQ_DRY_RUN=1 (print
            the java command line a run would start, and stop).

            Examples:
              bufq examples/jax-mlp/ -c summary
              bufq --format json -c 'values where live at peak order by size desc limit 10' DUMP
              echo 'steps order by live_bytes desc limit 5' | bufq DUMP
              bufq --sql 'select module, sum(size) as size from values group by module' DIR
            """;

    /**
     * Options that take a value (the next argument, or {@code --option=VALUE}). The launcher tells a
     * PATH from an option's value with this list, and a batch run from an interactive one with
     * {@link #BATCH_OPTIONS}, without starting a JVM: LauncherTest holds its two lists to these.
     */
    public static final List<String> VALUE_OPTIONS = List.of("--format", "-c", "--command", "-f", "--file", "--oom", "--sql",
            "--sql-allow", "--capacity", "--device", "--reserved", "--module");

    /** Options after which bufq exits instead of opening the interactive shell. */
    public static final List<String> BATCH_OPTIONS = List.of("-c", "--command", "-f", "--file", "--oom", "--sql", "-h", "--help", "--version");

    /** Every option, for "did you mean". */
    public static final List<String> OPTIONS = List.of("--format", "-c", "-f", "--oom", "--sql", "--sql-allow", "--bail", "--no-init", "--capacity",
            "--device", "--reserved", "--module", "--help", "--version");

    public static Args parse(String[] argv) throws UsageException {
        String format = "table";
        List<Action> actions = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        List<Preset> presets = new ArrayList<>();
        boolean bail = false, help = false, version = false, options = true, noInit = false;
        String module = null;
        List<String> sqlAllowed = new ArrayList<>();
        // An option added here goes into the lists above too (the launcher's are checked against them).
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (!options || !a.startsWith("-") || a.equals("-")) {
                paths.add(a);
                continue;
            }
            String inline = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                inline = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            switch (a) {
                case "--" -> options = false;
                case "-h", "--help" -> help = true;
                case "--version" -> version = true;
                case "--bail" -> bail = true;
                case "--no-init" -> noInit = true;
                case "--format" -> {
                    format = inline != null ? inline : value(argv, ++i, a);
                    if (!Formatters.names().contains(format))
                        throw new UsageException("unknown format '" + format + "' (expected one of "
                                + String.join(", ", Formatters.names()) + ")");
                }
                case "-c", "--command" -> actions.add(new Action(false, inline != null ? inline : value(argv, ++i, a)));
                case "-f", "--file" -> actions.add(new Action(true, inline != null ? inline : value(argv, ++i, a)));
                case "--oom" -> actions.add(new Action(false, "oom " + (inline != null ? inline : value(argv, ++i, a))));
                case "--sql" -> actions.add(new Action(false, "sql " + (inline != null ? inline : value(argv, ++i, a))));
                case "--sql-allow" -> sqlAllowed.add(inline != null ? inline : value(argv, ++i, a));
                case "--capacity", "--device", "--reserved" ->
                        presets.add(new Preset(a.substring(2), inline != null ? inline : value(argv, ++i, a)));
                case "--module" -> module = inline != null ? inline : value(argv, ++i, a);
                default -> throw new UsageException("unknown option '" + a + "'" + NearNames.hint(a, OPTIONS));
            }
            if (inline != null && !VALUE_OPTIONS.contains(a))
                throw new UsageException("option '" + a + "' takes no value");
        }
        return new Args(format, actions, bail, help, version, paths, noInit, List.copyOf(presets), module, List.copyOf(sqlAllowed));
    }

    private static String value(String[] argv, int i, String option) throws UsageException {
        if (i >= argv.length) throw new UsageException("option '" + option + "' needs a value");
        return argv[i];
    }
}
