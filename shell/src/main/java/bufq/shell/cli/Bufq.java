package bufq.shell.cli;

import bufq.format.Formatters;
import bufq.shell.command.Commands;
import bufq.shell.script.Scripts;
import bufq.shell.session.CommandException;
import bufq.shell.session.Engine;
import bufq.shell.session.Env;
import bufq.shell.statement.Paste;
import bufq.shell.session.ExitCode;
import bufq.shell.session.ModuleSet;
import bufq.shell.run.Repl;
import bufq.shell.session.Setting;
import bufq.shell.run.Shell;
import bufq.shell.statement.StatementReader;
import bufq.shell.run.StatementRunner;
import bufq.shell.session.Status;
import bufq.shell.session.Version;
import bufq.shell.session.UserPaths;

import bufq.model.LoadOptions;
import bufq.model.HloModule;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@code bufq} program: parses the command line, loads the dumps, then runs {@code -c}/{@code -f},
 * piped stdin, or the interactive shell. Takes its streams as arguments so tests drive the real
 * entry point. Exit codes: {@link ExitCode}. With {@link Main}, the one place that wires a session:
 * the engine, the commands, the script engine and the REPL are made here and handed to the
 * {@link Shell}, which knows them only by their interfaces.
 */
public final class Bufq {
    private final Env env;
    private final Supplier<Engine> engine;
    private final Function<InputStream, Repl> repl;

    /**
     * @param env    the process surroundings (tests pretend)
     * @param engine made once per run (tests pass a fake)
     * @param repl   makes the interactive loop for a terminal on {@code in}; only called when one is
     *               needed, so batch runs never load its classes
     */
    public Bufq(Env env, Supplier<Engine> engine, Function<InputStream, Repl> repl) {
        this.env = env;
        this.engine = engine;
        this.repl = repl;
    }

    /**
     * A session with the standard commands and JavaScript. The script engine is made on first use
     * (a lambda, not a constructor reference: a session that runs no script never loads its class).
     */
    public static Shell shell(Engine engine, PrintStream out, PrintStream err, Env env) {
        return new Shell(engine, Commands.standard(), Scripts::new, out, err, env);
    }

    public int run(String[] argv, InputStream in, PrintStream out, PrintStream err) {
        Args args;
        try {
            args = Args.parse(argv);
        } catch (Args.UsageException e) {
            err.println("bufq: " + e.getMessage());
            err.println("Try 'bufq --help' for more information.");
            return ExitCode.USAGE;
        }
        if (args.help()) {
            out.print(Args.USAGE);
            return ExitCode.OK;
        }
        if (args.version()) {
            out.println("bufq " + Version.NUMBER);
            return ExitCode.OK;
        }
        Shell shell = null;
        try {
            // Made first: the JLine REPL opens the terminal while the shell is made and the dumps are read.
            Repl interactive = args.actions().isEmpty() && !env.stdinClosed() && env.interactive() ? repl.apply(in) : null;
            shell = shell(engine.get(), out, err, env);
            shell.printer().setFormat(Formatters.byName(args.format()));
            shell.setBail(args.bail());
            int code = session(shell, interactive, args, in, err);
            try {
                shell.close();
            } catch (IOException e) {
                err.println("bufq: cannot write output: " + e.getMessage());
                code = Math.max(code, ExitCode.FAILED);
            }
            return code;
        } catch (RuntimeException | Error e) {
            err.println("bufq: internal error: " + e + " (run with BUFQ_DEBUG=1 for the stack trace)");
            if (env.debug()) e.printStackTrace(err);
            // Release the JavaScript context and publish nothing half-written.
            if (shell != null) {
                try {
                    shell.close();
                } catch (IOException | RuntimeException ignored) {
                    // already reporting the first failure
                }
            }
            return ExitCode.FAILED;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int session(Shell shell, Repl interactive, Args args, InputStream in, PrintStream err) {
        for (String dir : args.sqlAllowed()) {
            try {
                shell.settings().allowSql(Path.of(dir));
            } catch (CommandException | java.nio.file.InvalidPathException e) {
                err.println("bufq: --sql-allow: " + e.getMessage());
                err.println("Try 'bufq --help' for more information.");
                return ExitCode.USAGE;
            }
        }
        for (Args.Preset p : args.presets()) {
            try {
                shell.settings().set(Setting.byKey(p.setting()), p.value());
            } catch (CommandException e) {
                err.println("bufq: --" + p.setting() + ": " + e.getMessage());
                err.println("Try 'bufq --help' for more information.");
                return ExitCode.USAGE;
            }
        }
        // Each -c statement is compiled once, here: what it reads comes with the load, and it runs as
        // compiled (null: a -f file, or a line with nothing to compile).
        List<StatementRunner.Statement> compiled = new ArrayList<>();
        for (Args.Action a : args.actions()) compiled.add(a.file() ? null : shell.compile(a.text()));
        if (!args.paths().isEmpty()) {
            List<Path> paths = new ArrayList<>();
            for (String p : args.paths()) paths.add(Path.of(p));
            // The parts of the dumps that the -c statements read come in the load's own parallel pass.
            boolean usedValues = false;
            for (StatementRunner.Statement s : compiled) usedValues |= s != null && s.readsUsedValues();
            LoadOptions options = new LoadOptions(usedValues);
            try {
                List<Engine.FoundModule> found = shell.modules().discover(paths);
                // One module in a terminal: the prompt comes before the module is read, which goes on
                // behind it; what the read finds wrong is said at the first statement or idle moment.
                boolean behind = interactive != null && found.size() == 1;
                if (behind) shell.modules().loadInBackground(found.get(0));
                List<ModuleSet.Entry> added = behind ? List.of() : shell.modules().add(found, options);
                // a capture or a directory opened on one of many modules says so, and which
                if (interactive != null && added.size() > 1) shell.printer().info(ModuleSet.openedLine(added, shell.modules().set().currentEntry()));
            } catch (Engine.Failure e) {
                err.println("bufq: " + e.getMessage());
                return ExitCode.LOAD;
            }
        }
        if (args.module() != null) {
            try {
                shell.modules().use(args.module());
            } catch (CommandException | Engine.Failure e) {
                err.println("bufq: --module: " + e.getMessage());
                return ExitCode.USAGE;
            }
        }
        // A batch run over several modules: a command on one module says which it takes (Modules.requireFor).
        if (interactive == null) shell.modules().batch();
        // --bail: a dump cut short is a failure, not a warning a green check hides (a file cut between
        // two allocations reads whole, its report beside it says otherwise).
        if (args.bail() && interactive == null) {
            for (ModuleSet.Entry e : shell.modules().set().entries()) {
                HloModule m = e.loaded();
                if (m != null && m.info().truncatedAt() != null) {
                    shell.printer().error(m.info().truncatedAt() + ": the dump ends early (truncated?): --bail stops here, "
                            + "as no figure of a cut dump can be trusted");
                    return ExitCode.FAILED;
                }
            }
        }
        // init.js may define fields, tiling models, checks and rules; it runs on first need (a script,
        // a statement that may use what it defines, an idle prompt), so a run needing none never starts the engine.
        if (!args.noInit()) shell.deferInit();
        // A batch run's json is one document for json.load: several results make an array.
        if (!args.actions().isEmpty()) {
            shell.printer().setOneJsonDocument(true);
            // `oom -` in a batch run reads all of stdin (a log with blank lines in it)
            if (!env.stdinClosed()) shell.setPaste(Paste.all(in));
            return actions(shell, args, compiled, err);
        }
        if (env.stdinClosed()) return ExitCode.OK; // nothing to read, and descriptor 0 is not ours
        if (!env.interactive()) {
            shell.printer().setOneJsonDocument(true);
            BufferedReader statements = StatementReader.utf8(in);
            // `oom -` in piped statements reads the lines after it, up to an empty line
            shell.setPaste(Paste.untilBlank(statements, null));
            return script(shell, statements, "stdin", err);
        }
        return interactive.run(shell);
    }

    private int actions(Shell shell, Args args, List<StatementRunner.Statement> compiled, PrintStream err) {
        boolean failed = false;
        for (int i = 0; i < args.actions().size(); i++) {
            Args.Action a = args.actions().get(i);
            Status st;
            if (a.file() && shell.isScriptFile(Path.of(a.text()))) {
                // A -f file that cannot be read is a usage error (exit 2), JavaScript or not.
                String unreadable = unreadable(Path.of(a.text()));
                if (unreadable != null) {
                    err.println("bufq: cannot read script " + a.text() + ": " + unreadable);
                    return ExitCode.USAGE;
                }
                try {
                    st = shell.scripts().runFile(Path.of(a.text()));
                } catch (CommandException e) {
                    shell.printer().error(e.getMessage());
                    st = Status.ERROR;
                } catch (RuntimeException | StackOverflowError | LinkageError e) {
                    shell.printer().internalError(e); // ends this script only, as Shell.execute does for a statement
                    st = Status.ERROR;
                }
            } else if (a.file()) {
                Path file = Path.of(a.text());
                try {
                    UserPaths.requireRegularFile(file);
                } catch (IOException e) {
                    err.println("bufq: cannot read script " + a.text() + ": " + e.getMessage());
                    return ExitCode.USAGE;
                }
                try (BufferedReader r = StatementReader.utf8(Files.newInputStream(file))) {
                    st = toStatus(script(shell, r, a.text(), err));
                } catch (NoSuchFileException e) {
                    err.println("bufq: cannot read script " + a.text() + ": no such file");
                    return ExitCode.USAGE;
                } catch (IOException e) {
                    err.println("bufq: cannot read script " + a.text() + ": " + UserPaths.message(e));
                    return ExitCode.USAGE;
                }
                if (st == null) return ExitCode.USAGE;
            } else {
                StatementRunner.Statement s = compiled.get(i);
                st = s != null ? shell.execute(s) : shell.execute(a.text());
            }
            if (st == Status.QUIT) break;
            if (st == Status.ERROR) {
                failed = true;
                if (shell.bail()) break;
            }
        }
        return failed ? ExitCode.FAILED : ExitCode.OK;
    }

    /** Why a script file cannot be read (missing, a directory, FIFO or device, no permission), or null. */
    private static String unreadable(Path file) {
        try {
            UserPaths.requireRegularFile(file);
        } catch (IOException e) {
            return UserPaths.message(e);
        }
        if (!Files.exists(file)) return "no such file";
        if (!Files.isReadable(file)) return "permission denied";
        return null;
    }

    /** Runs a script; returns an exit code (USAGE when the file itself cannot be read). */
    private int script(Shell shell, BufferedReader r, String name, PrintStream err) {
        try {
            Status st = shell.runScript(shell.statements(r), name);
            return st == Status.ERROR ? ExitCode.FAILED : ExitCode.OK;
        } catch (StatementReader.NotTextException e) {
            err.println("bufq: " + name + ": " + e.getMessage() + "; stopped");
            return ExitCode.USAGE;
        } catch (IOException e) {
            err.println("bufq: cannot read " + name + ": " + e.getMessage());
            return ExitCode.USAGE;
        } catch (CommandException e) {
            err.println("bufq: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    private static Status toStatus(int code) {
        return switch (code) {
            case ExitCode.OK -> Status.OK;
            case ExitCode.FAILED -> Status.ERROR;
            default -> null;
        };
    }
}
