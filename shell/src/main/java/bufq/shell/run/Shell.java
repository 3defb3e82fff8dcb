package bufq.shell.run;

import bufq.api.Extensions;
import bufq.shell.api.CommandContext;
import bufq.shell.api.CommandTable;
import bufq.shell.api.ScriptContext;
import bufq.shell.api.ScriptEngine;
import bufq.shell.api.SessionControl;
import bufq.shell.session.CommandException;
import bufq.shell.session.DeferredReads;
import bufq.shell.session.Engine;
import bufq.shell.session.Env;
import bufq.shell.session.History;
import bufq.shell.session.Modules;
import bufq.shell.session.OutputSink;
import bufq.shell.session.Printer;
import bufq.shell.session.Settings;
import bufq.shell.session.Status;
import bufq.shell.statement.Paste;
import bufq.shell.statement.StatementReader;
import bufq.model.HloModule;
import bufq.model.PartReadException;
import bufq.model.TilingModel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One bufq session and its statement loop. Every way in (REPL, {@code -c}, {@code -f}, stdin,
 * {@code run}) goes through {@link #execute}, which prints a statement's error and never throws for
 * what the user typed. The session's parts each do one job: {@link Modules} (loading, the current
 * module), {@link Printer} (results to the sink, messages to stderr), {@link StatementRunner} (a
 * query or a command's plan), {@link InitScript} (the user's init.js, run on first need). Commands
 * see them through one {@link CommandContext} and the script engine through one {@link ScriptContext},
 * wired here; what runs comes from outside (the command line's wiring): the engine, the commands and
 * the script engine.
 */
public final class Shell implements SessionControl {
    private final Engine engine;
    private final Env env;
    private final Settings settings = new Settings();
    private final History history = new History();
    private final CommandTable commands;
    private final Function<ScriptContext, ScriptEngine> scriptEngine;
    private final InitScript init = new InitScript(this::printer, this::scripts);
    private final Printer printer;
    private final DeferredReads deferred;
    private final Modules modules;
    private final CommandContext context;
    private final StatementRunner runner;
    private ScriptEngine scripts;
    private boolean bail;
    private boolean quit;
    private int scriptDepth;
    private Paste paste = Paste.NONE;

    /**
     * @param scriptEngine makes the session's script engine on first use, so sessions that run no
     *                     script never load its classes
     */
    public Shell(Engine engine, CommandTable commands, Function<ScriptContext, ScriptEngine> scriptEngine,
                 PrintStream out, PrintStream err, Env env) {
        this.engine = engine;
        this.commands = commands;
        this.scriptEngine = scriptEngine;
        this.env = env;
        this.printer = new Printer(out, err, env, settings, init::capturedSink, init::capturedErr);
        this.deferred = new DeferredReads(err, env);
        this.modules = new Modules(engine, env, err, deferred);
        this.context = new CommandContext(engine, settings, modules, printer, this);
        this.runner = new StatementRunner(engine, commands, context);
    }

    /** {@code line} compiled once, to run later with {@link #execute(StatementRunner.Statement)}; null: nothing to compile. */
    public StatementRunner.Statement compile(String line) { return runner.compile(line); }

    /**
     * Runs one statement (a query or a command) and prints its result or its error.
     * Never throws for anything the user typed.
     */
    public Status execute(String line) { return execute(line, null); }

    /** Runs what {@link #compile} made, as {@link #execute(String)} runs its text. */
    public Status execute(StatementRunner.Statement s) { return execute(s.text(), s); }

    private Status execute(String line, StatementRunner.Statement compiled) {
        String text = line.strip();
        if (text.isEmpty() || StatementReader.isComment(text)) return Status.OK;
        if (StatementRunner.tooLong(text)) {
            printer.error(StatementRunner.TOO_LONG);
            return Status.ERROR;
        }
        long t0 = System.nanoTime();
        boolean timed = settings.timer();  // 'timer on' itself is not timed
        Status st;
        printer.setStatement(text);
        try {
            modules.awaitLoad(printer.err()::println);   // the module an interactive session loads behind its first prompt
            deferred.reportNew(modules.loaded());   // parts read in the background meanwhile
            init.before();   // waits for a run an idle prompt started
            StatementRunner.Statement statement = compiled != null ? compiled : runner.compile(text);
            if (statement.usesScripts()) init.run();
            st = runner.run(statement);
        } catch (CommandException | TilingModel.TilingFailure e) {
            printer.error(e.getMessage());
            st = Status.ERROR;
        } catch (Engine.Failure e) {
            printer.diagnostic(e.getMessage());
            st = Status.ERROR;
        } catch (IOException e) {
            printer.error(e.getMessage() == null ? e.toString() : e.getMessage());
            st = Status.ERROR;
        } catch (PartReadException.Unchecked e) {
            // The Used values section read on first use, deep in an analysis: stopped by Ctrl-C, or its file changed.
            printer.error(CommandException.of(e.getCause()).getMessage());
            st = Status.ERROR;
        } catch (CancellationException e) {
            // An analysis stopped by Ctrl-C between two of its steps (why's values, check's rules): no report.
            printer.error(CommandException.CANCELLED);
            st = Status.ERROR;
        } catch (OutOfMemoryError e) {
            // The statement asked for more than the heap holds; what it built is garbage now, so
            // the session goes on.
            printer.error("out of memory running this statement; the session goes on (a smaller limit or width may fit)");
            st = Status.ERROR;
        } catch (RuntimeException | Error e) {
            // Any Error (a StackOverflowError, a class a library could not initialise) ends this
            // statement only: earlier results and the output file stay.
            printer.internalError(e);
            st = Status.ERROR;
        } finally {
            init.after();
        }
        if (scriptDepth == 0) {
            try {
                printer.endStatement();   // one document per statement
            } catch (IOException e) {
                printer.error(e.getMessage());
                st = Status.ERROR;
            }
        }
        deferred.reportNew(modules.loaded());   // parts a statement read on its own (a script, an undeclared use)
        if (timed && settings.timer() && st != Status.QUIT)
            printer.err().printf(Locale.ROOT, "Time: %.1f ms%n", (System.nanoTime() - t0) / 1e6);
        return quit ? Status.QUIT : st;
    }

    /**
     * Runs every statement from {@code reader}; errors are printed with {@code source:line}. Stops at
     * the first error when {@code bail}. Returns ERROR if any statement failed, QUIT on quit.
     */
    @Override public Status runScript(StatementReader reader, String source) throws IOException, CommandException {
        if (scriptDepth >= 16) throw new CommandException("scripts nested too deeply (does a script run itself?)");
        String saved = printer.location();
        scriptDepth++;
        boolean failed = false;
        try {
            StatementReader.Statement s;
            while ((s = reader.next()) != null) {
                printer.setLocation(source == null ? null : source + ":" + s.line());
                Status st = execute(s.text());
                if (st == Status.QUIT) return Status.QUIT;
                if (st == Status.ERROR) {
                    failed = true;
                    if (bail) break;
                }
            }
        } finally {
            scriptDepth--;
            printer.setLocation(saved);
        }
        return failed ? Status.ERROR : Status.OK;
    }

    /**
     * The work an idle prompt does, in order, on the REPL's idle thread or threads of their own: a load
     * started behind the first prompt ends (what it says handed to {@code show}); the current module's
     * unread parts are read in the background ({@link DeferredReads}); the script engine starts ({@link
     * ScriptEngine#prepare}); a pending init script runs ({@link InitScript}), what it prints handed to
     * {@code show}. {@code stillIdle} is asked before the last two; a second call goes on from there.
     */
    public void idle(BooleanSupplier stillIdle, Consumer<String> show) {
        try {
            modules.awaitLoad(line -> show.accept(line + "\n"));
        } catch (CommandException e) {
            return;   // interrupted: the next idle prompt waits again
        }
        deferred.startInBackground(modules.current());
        if (!stillIdle.getAsBoolean()) return;
        scripts().prepare();
        if (!stillIdle.getAsBoolean()) return;
        init.runIdle(show);
    }

    /** Defers the user's init script ({@code $XDG_CONFIG_HOME/bufq/init.js}) to its first need. */
    public void deferInit() { init.defer(); }

    /** The background read {@link #idle} started for {@code m}, or null (tests wait on it). */
    CompletableFuture<Void> backgroundRead(HloModule m) { return deferred.backgroundRead(m); }

    @Override public boolean isScriptFile(Path file) {
        return file.getFileName() != null && file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith("." + scripts().extension());
    }

    @Override public StatementReader statements(BufferedReader r) {
        return new StatementReader(r, engine.entities(), this::scriptIncomplete, () -> scripts().unfinished());
    }

    /** Whether {@code text} is a statement that cannot end here (see {@link StatementReader#needsMore}). */
    public boolean needsMore(String text) {
        return StatementReader.needsMore(text, engine.entities(), this::scriptIncomplete);
    }

    private boolean scriptIncomplete(String code) { return scripts().incomplete(code); }

    /** What commands see of this session. */
    public CommandContext context() { return context; }
    public Engine engine() { return engine; }
    public Settings settings() { return settings; }
    public Modules modules() { return modules; }
    public Printer printer() { return printer; }
    /** The current module, or null before anything is loaded. */
    public HloModule current() { return modules.current(); }
    public Env env() { return env; }
    @Override public History history() { return history; }
    @Override public CommandTable commands() { return commands; }
    public boolean bail() { return bail; }
    public void setBail(boolean b) { bail = b; }
    @Override public Paste paste() { return paste; }
    /** Where {@code oom -} reads pasted text (the REPL, a piped script or a batch run sets it). */
    public void setPaste(Paste p) { paste = p == null ? Paste.NONE : p; }
    @Override public void requestQuit() { quit = true; }

    /**
     * The session's script engine, made on first use (its language runtime starts only when a script
     * runs); it sees the session through a {@link ScriptContext}, whose init runs a deferred init.js
     * (waiting for an idle prompt's run of it) before a script.
     */
    @Override public ScriptEngine scripts() {
        if (scripts == null) scripts = scriptEngine.apply(new ScriptContext(engine, settings, modules, printer, env, init::run));
        return scripts;
    }

    @Override public List<Extensions.AdviseRule> scriptRules() { return scripts == null ? List.of() : scripts.rules(); }
    @Override public List<Extensions.Check> scriptChecks() { return scripts == null ? List.of() : scripts.checks(); }

    /** Ends the session: publishes any output file. */
    public void close() throws IOException {
        if (scripts != null) scripts.close();
        // A command holding a resource of the session (sql's DuckDB and its spill folder) lets it go.
        for (var c : commands.all()) {
            if (c instanceof AutoCloseable a) {
                try {
                    a.close();
                } catch (Exception e) {
                    printer.info("bufq: " + c.name() + ": " + e.getMessage());
                }
            }
        }
        printer.endDocument();
        printer.switchSink(OutputSink.console(printer.out()));
    }
}
