package bufq.shell;

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
 * entry point. Exit codes: 0 ok, 1 a statement failed, 2 usage, 3 load error.
 */
public final class Bufq {
    public static final int OK = 0, FAILED = 1, USAGE = 2, LOAD = 3;
    public static final String VERSION = "0.1.0";

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

    public int run(String[] argv, InputStream in, PrintStream out, PrintStream err) {
        Args args;
        try {
            args = Args.parse(argv);
        } catch (Args.UsageException e) {
            err.println("bufq: " + e.getMessage());
            err.println("Try 'bufq --help' for more information.");
            return USAGE;
        }
        if (args.help()) {
            out.print(Args.USAGE);
            return OK;
        }
        if (args.version()) {
            out.println("bufq " + VERSION);
            return OK;
        }
        Shell shell = null;
        try {
            shell = new Shell(engine.get(), out, err, env);
            shell.setFormat(bufq.format.Formatters.byName(args.format()));
            shell.setBail(args.bail());
            int code = session(shell, args, in, err);
            try {
                shell.close();
            } catch (IOException e) {
                err.println("bufq: cannot write output: " + e.getMessage());
                code = Math.max(code, FAILED);
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
            return FAILED;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int session(Shell shell, Args args, InputStream in, PrintStream err) {
        // Made before loading: the JLine REPL warms up its line editor while the dumps are read.
        Repl interactive = args.actions().isEmpty() && !env.stdinClosed() && env.interactive() ? repl.apply(in) : null;
        if (!args.paths().isEmpty()) {
            List<Path> paths = new ArrayList<>();
            for (String p : args.paths()) paths.add(Path.of(p));
            try {
                shell.load(paths);
            } catch (Engine.Failure e) {
                err.println("bufq: " + e.getMessage());
                return LOAD;
            }
        }
        // init.js may define fields and tiling models the statements below use; no file, no engine.
        if (!args.noInit()) shell.scripts().runInit();
        if (!args.actions().isEmpty()) return actions(shell, args, err);
        if (env.stdinClosed()) return OK; // nothing to read, and descriptor 0 is not ours
        if (!env.interactive()) {
            return script(shell, StatementReader.utf8(in), "stdin", err);
        }
        return interactive.run(shell);
    }

    private int actions(Shell shell, Args args, PrintStream err) {
        boolean failed = false;
        for (Args.Action a : args.actions()) {
            Status st;
            ScriptHost host = a.file() ? hostFor(shell, a.text()) : null;
            if (host != null) {
                try {
                    st = host.run(shell, Path.of(a.text()));
                } catch (CommandException e) {
                    shell.error(e.getMessage());
                    st = Status.ERROR;
                } catch (RuntimeException | StackOverflowError | LinkageError e) {
                    shell.internalError(e); // ends this script only, as Shell.execute does for a statement
                    st = Status.ERROR;
                }
            } else if (a.file()) {
                Path file = Path.of(a.text());
                try (BufferedReader r = StatementReader.utf8(Files.newInputStream(file))) {
                    st = toStatus(script(shell, r, a.text(), err));
                } catch (NoSuchFileException e) {
                    err.println("bufq: cannot read script " + a.text() + ": no such file");
                    return USAGE;
                } catch (IOException e) {
                    err.println("bufq: cannot read script " + a.text() + ": " + UserPaths.message(e));
                    return USAGE;
                }
                if (st == null) return USAGE;
            } else {
                st = shell.execute(a.text());
            }
            if (st == Status.QUIT) break;
            if (st == Status.ERROR) {
                failed = true;
                if (shell.bail()) break;
            }
        }
        return failed ? FAILED : OK;
    }

    private static ScriptHost hostFor(Shell shell, String file) {
        int dot = file.lastIndexOf('.');
        return dot < 0 || file.endsWith(".bq") ? null : shell.scriptHost(file.substring(dot + 1));
    }

    /** Runs a script; returns an exit code (USAGE when the file itself cannot be read). */
    private int script(Shell shell, BufferedReader r, String name, PrintStream err) {
        try {
            Status st = shell.runScript(new StatementReader(r, shell.engine().entities()), name);
            return st == Status.ERROR ? FAILED : OK;
        } catch (StatementReader.NotTextException e) {
            err.println("bufq: " + name + ": " + e.getMessage() + "; stopped");
            return USAGE;
        } catch (IOException e) {
            err.println("bufq: cannot read " + name + ": " + e.getMessage());
            return USAGE;
        } catch (CommandException e) {
            err.println("bufq: " + e.getMessage());
            return FAILED;
        }
    }

    private static Status toStatus(int code) {
        return switch (code) {
            case OK -> Status.OK;
            case FAILED -> Status.ERROR;
            default -> null;
        };
    }
}
