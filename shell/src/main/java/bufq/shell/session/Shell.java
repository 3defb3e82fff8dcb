package bufq.shell.session;

import bufq.advise.Rule;
import bufq.analysis.CheckRule;
import bufq.eval.ModuleRow;
import bufq.format.FormatOptions;
import bufq.format.Formatter;
import bufq.format.Formatters;
import bufq.format.JsonFormatter;
import bufq.format.MarkdownFormatter;
import bufq.lang.SqlHabits;
import bufq.format.TableFormatter;
import bufq.lang.Parser;
import bufq.model.DumpPart;
import bufq.model.HloModule;
import bufq.model.LoadWarning;
import bufq.model.PartUnavailableException;
import bufq.model.TilingModel;
import bufq.table.Output;
import bufq.table.Table;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.Function;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One bufq session: the loaded modules and the current one, settings, the output format and sink,
 * history. Every way in (REPL, {@code -c}, {@code -f}, stdin, {@code run}) goes through
 * {@link #execute}: a line that starts with an entity name is a query, anything else a command.
 * Results go to the sink; messages, errors and timings go to stderr. What it runs comes from
 * outside (the command line's wiring): the engine, the commands and the script engine.
 */
public final class Shell {
    public static final String VERSION = "0.1.0";
    /** How many load warnings are printed per module before they are only counted. */
    static final int WARNINGS_SHOWN = 10;
    /** What an interrupted query or module scan reports (the REPL interrupts on Ctrl-C). */
    static final String CANCELLED = "query cancelled (Ctrl-C)";
    /** A command other than a query stopped by Ctrl-C (e.g. {@code summary} over a big directory). */
    static final String COMMAND_CANCELLED = "cancelled (Ctrl-C)";

    private final Engine engine;
    private final PrintStream out;
    private final PrintStream err;
    private final Env env;
    private final Settings settings = new Settings();
    private final History history = new History();
    private final CommandTable commands;
    private final Function<Shell, ScriptEngine> scriptEngine;
    private final ModuleSet modules = new ModuleSet();
    private Formatter format = Formatters.byName("table");
    private OutputSink sink;
    private boolean bail;
    private boolean quit;
    private int scriptDepth;
    private String location;
    private int terminalWidth;
    /** The statement running, until its first result is printed (for the echo setting). */
    private String statement;
    /** Whether anything went to the current sink yet: markdown results are kept apart by a blank line. */
    private boolean sinkUsed;
    /** A batch run's first json result, held until a second makes them an array (see printJson). */
    private String heldJson;
    private boolean jsonArray;
    private boolean oneJsonDocument;
    private ScriptEngine scripts;
    private final DeferredReads deferred;
    private final InitScript init = new InitScript(this);
    private Paste paste = Paste.NONE;

    /**
     * @param scriptEngine makes the session's script engine on first use, so sessions that run no
     *                     script never load its classes
     */
    public Shell(Engine engine, CommandTable commands, Function<Shell, ScriptEngine> scriptEngine,
                 PrintStream out, PrintStream err, Env env) {
        this.engine = engine;
        this.commands = commands;
        this.scriptEngine = scriptEngine;
        this.out = out;
        this.err = err;
        this.env = env;
        this.sink = OutputSink.console(out);
        this.terminalWidth = columns(env);
        this.deferred = new DeferredReads(err, env);
    }

    private static int columns(Env env) {
        try {
            int c = Integer.parseInt(env.vars().getOrDefault("COLUMNS", "").trim());
            if (c >= 20 && c <= 1000) return c;
        } catch (NumberFormatException e) {
            // not set or not a number: use the default
        }
        return 100;
    }

    /**
     * Runs one statement (a query or a command) and prints its result or its error.
     * Never throws for anything the user typed.
     */
    public Status execute(String line) {
        String text = line.strip();
        if (text.isEmpty() || StatementReader.isComment(text)) return Status.OK;
        if (text.length() > Parser.MAX_LENGTH && !StatementReader.isJs(text)) {
            // Refused before any lexing: every step below (init check, parts, parse, plan) reads it whole.
            error("statement too long (more than " + Parser.MAX_LENGTH + " characters); split it, or list values with 'in (...)'");
            return Status.ERROR;
        }
        long t0 = System.nanoTime();
        boolean timed = settings.timer();  // 'timer on' itself is not timed
        Status st;
        statement = text;
        deferred.reportNew(loadedModules());   // parts read in the background meanwhile
        try {
            init.before(() -> usesScripts(text));
            st = isQuery(text) ? runQuery(text) : runCommand(text);
        } catch (CommandException e) {
            error(e.getMessage());
            st = Status.ERROR;
        } catch (Engine.Failure e) {
            diagnostic(e.getMessage());
            st = Status.ERROR;
        } catch (IOException e) {
            error(e.getMessage() == null ? e.toString() : e.getMessage());
            st = Status.ERROR;
        } catch (PartUnavailableException e) {
            // A part of a module read on first use, deep in a command: stopped by Ctrl-C, or its file changed.
            error(e.cancelled() ? COMMAND_CANCELLED : e.getMessage());
            st = Status.ERROR;
        } catch (CancellationException e) {
            // An analysis stopped by Ctrl-C between two of its steps (why's values, check's rules): no report.
            error(COMMAND_CANCELLED);
            st = Status.ERROR;
        } catch (TilingModel.TilingFailure e) {
            error(e.getMessage());
            st = Status.ERROR;
        } catch (OutOfMemoryError e) {
            // The statement asked for more than the heap holds; what it built is garbage now, so
            // the session goes on.
            error("out of memory running this statement; the session goes on (a smaller limit or width may fit)");
            st = Status.ERROR;
        } catch (RuntimeException | Error e) {
            // Any Error (a StackOverflowError, a class a library could not initialise) ends this
            // statement only: earlier results and the output file stay.
            internalError(e);
            st = Status.ERROR;
        } finally {
            init.after();
        }
        if (!oneJsonDocument && scriptDepth == 0) {
            try {
                endJson();   // one document per statement
            } catch (IOException e) {
                error(e.getMessage());
                st = Status.ERROR;
            }
        }
        deferred.reportNew(loadedModules());   // parts a statement read on its own (a script, an undeclared use)
        if (timed && settings.timer() && st != Status.QUIT)
            err.printf(Locale.ROOT, "Time: %.1f ms%n", (System.nanoTime() - t0) / 1e6);
        if (quit) return Status.QUIT;
        return st;
    }

    /**
     * Runs every statement from {@code reader}; errors are printed with {@code source:line}. Stops at
     * the first error when {@code bail}. Returns ERROR if any statement failed, QUIT on quit.
     */
    public Status runScript(StatementReader reader, String source) throws IOException, CommandException {
        if (scriptDepth >= 16) throw new CommandException("scripts nested too deeply (does a script run itself?)");
        String saved = location;
        scriptDepth++;
        boolean failed = false;
        try {
            StatementReader.Statement s;
            while ((s = reader.next()) != null) {
                location = source == null ? null : source + ":" + s.line();
                Status st = execute(s.text());
                if (st == Status.QUIT) return Status.QUIT;
                if (st == Status.ERROR) {
                    failed = true;
                    if (bail) break;
                }
            }
        } finally {
            scriptDepth--;
            location = saved;
        }
        return failed ? Status.ERROR : Status.OK;
    }

    private boolean isQuery(String text) {
        String word = firstWord(text);
        // A command named like an entity ('modules') runs as the command when given alone.
        if (commands.byName(word) != null && text.strip().length() == word.length()) return false;
        return engine.entities().contains(word.toLowerCase(Locale.ROOT));
    }

    private static String firstWord(String text) {
        int i = 0;
        while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) i++;
        return text.substring(0, i);
    }

    private Status runQuery(String text) throws CommandException, Engine.Failure, IOException {
        HloModule m = requireModule();
        readParts(m, needs(text));
        List<Output> result;
        try (QueryDeadline limit = QueryDeadline.start(settings.timeoutSeconds())) {
            try {
                List<ModuleRow> rows = null;
                if (firstWord(text).toLowerCase(Locale.ROOT).equals("modules")) {
                    List<ModuleRow> all = new ArrayList<>();
                    forEachModule(x -> all.add(ModuleRow.of(x, x.handle().equals(m.handle()))));
                    rows = all;
                }
                result = engine.query(text, m, settings.tiling(), rows);
            } catch (Engine.Failure f) {
                if (limit.expired()) throw new CommandException(limit.message());
                if (Thread.currentThread().isInterrupted()) throw new CommandException(CANCELLED);
                throw f;
            }
        }
        // Ctrl-C in the REPL interrupts this thread: a query that finished meanwhile is not shown.
        if (Thread.currentThread().isInterrupted()) throw new CommandException(CANCELLED);
        print(result);
        return Status.OK;
    }

    private Status runCommand(String text) throws CommandException, Engine.Failure, IOException {
        String[] head = text.split("\\s+", 2);
        Command raw = commands.byName(head[0]);
        if (raw != null && raw.rawArgs()) {
            HloModule m = current();
            if (m != null && raw.needsCurrentModule()) readParts(m, raw.needs(this, head.length < 2 ? "" : head[1]));
            return timed(raw, () -> raw.run(this, head.length < 2 ? List.of() : List.of(head[1])));
        }
        // "summary;" as in SQL shells: the ';' ends the statement (code after 'js' keeps its own)
        if (text.endsWith(";")) text = text.substring(0, text.length() - 1).stripTrailing();
        List<String> words = Words.split(text);
        String name = words.get(0);
        Command c = commands.byName(name);
        if (c == null) {
            List<String> known = new ArrayList<>(commands.names());
            known.addAll(engine.entities());
            String sql = SqlHabits.forStatement(text);
            throw new CommandException("unknown command '" + name + "'" + (sql.isEmpty() ? Suggest.hint(name, known)
                    + " (type 'help' for the list)" : sql));
        }
        HloModule m = current();
        if (m != null && c.needsCurrentModule()) readParts(m, c.needs(this, head.length < 2 ? "" : head[1]));
        return timed(c, () -> c.run(this, words.subList(1, words.size())));
    }

    private interface CommandRun { Status run() throws CommandException, Engine.Failure, IOException; }

    /**
     * Runs a command that evaluates the user's conditions ({@link Command#evaluatesConditions}) under
     * the query time limit, as a query runs; others run as they are.
     */
    private Status timed(Command c, CommandRun run) throws CommandException, Engine.Failure, IOException {
        if (!c.evaluatesConditions()) return run.run();
        try (QueryDeadline limit = QueryDeadline.start(settings.timeoutSeconds())) {
            try {
                return run.run();
            } catch (CommandException | Engine.Failure | CancellationException e) {
                if (limit.expired()) throw new CommandException(limit.message());
                if (Thread.currentThread().isInterrupted()) throw new CommandException(COMMAND_CANCELLED);
                throw e;
            }
        }
    }

    /** Reads {@code parts} of {@code m} not read yet, as a load: Ctrl-C stops it, a failure is one line. */
    public void readParts(HloModule m, Set<DumpPart> parts) throws CommandException {
        try {
            deferred.read(m, parts);
        } catch (PartUnavailableException e) {
            throw new CommandException(e.cancelled() ? COMMAND_CANCELLED : e.getMessage());
        }
    }

    /**
     * The dump parts {@code statement} reads beyond what every loaded module holds: a query's, as its
     * compilation says, or a command's; none for a statement that does not compile.
     */
    public Set<DumpPart> needs(String statement) {
        String text = statement.strip();
        if (text.isEmpty() || text.startsWith("#")) return Set.of();
        if (isQuery(text)) {
            return engine.needs(text);
        }
        String[] head = text.split("\\s+", 2);
        Command c = commands.byName(head[0]);
        return c == null ? Set.of() : c.needs(this, head.length < 2 ? "" : head[1]);
    }

    /**
     * Whether {@code statement} may depend on what the user's init script registers or runs, so a
     * pending one runs first (see {@link InitScript}): a query that parses but does not check against
     * the fields known now (init.js may define the fields it names), or a command that says so
     * ({@link Command#usesScripts}: js, fields, check, advise, set tiling NAME of a model not known, ...).
     */
    boolean usesScripts(String statement) {
        String text = statement.strip();
        if (isQuery(text)) return engine.unresolved(text);
        String[] head = text.split("\\s+", 2);
        Command c = commands.byName(head[0]);
        return c != null && c.usesScripts(this, head.length < 2 ? "" : head[1].strip());
    }

    /**
     * Prints results through the current format; tables are cut to {@code maxrows} in human formats.
     * In markdown each statement's results start after a blank line, so pasted results render as
     * separate tables; with {@code echo on} the statement heads them.
     *
     * @throws CommandException the format cannot hold these results (csv of several tables)
     */
    public void print(List<? extends Output> outputs) throws IOException, CommandException {
        boolean human = Formatters.isHuman(format);
        List<Output> shown = new ArrayList<>(outputs.size());
        for (Output o : outputs) {
            if (o instanceof Table t && human && settings.maxRows() > 0) shown.add(t.limit(settings.maxRows()));
            else shown.add(o);
        }
        StringBuilder b = new StringBuilder();
        boolean markdown = format instanceof MarkdownFormatter;
        if (markdown && sinkUsed) b.append('\n');
        if (human && settings.echo() && statement != null) {
            if (markdown) b.append("#### `").append(statement.replace("`", "'")).append("`\n\n");
            else b.append("-- ").append(statement).append('\n');
        }
        statement = null;
        try {
            Formatters.writeAll(shown, format, formatOptions(), b);
        } catch (IllegalArgumentException e) {
            throw new CommandException(e.getMessage());
        }
        sinkUsed = true;
        if (format.name().equals("json")) {
            printJson(b.toString());
            return;
        }
        write(b.toString());
    }

    /**
     * Writes one JSON document. A batch run ({@link #setOneJsonDocument}) gets one document in all:
     * its first result alone, or, once a second comes, an array of the results in order (closed
     * when the output ends, the format changes or the run ends), so {@code json.load} reads any run.
     * Otherwise (the interactive shell) each statement is one document in the same way: a statement
     * that prints lines and a value, or several tables, prints one array.
     */
    public void printJson(String document) throws IOException {
        if (init.capturedSink() != null) {
            write(document);   // init.js at an idle prompt, between statements: a document of its own
            return;
        }
        String d = document.endsWith("\n") ? document.substring(0, document.length() - 1) : document;
        if (jsonArray) {
            write(",\n" + d);
        } else if (heldJson == null) {
            heldJson = d;
        } else {
            write("[\n" + heldJson + ",\n" + d);
            heldJson = null;
            jsonArray = true;
        }
    }

    /**
     * A line a script prints ({@code print}). In json it is a document of its own, {@code {"print": LINE}}
     * (an entry of a batch run's array), so the output stays JSON that {@code jq} and {@code json.load}
     * read; in the other formats the line as it is.
     */
    public void printLine(String line) throws IOException {
        if (!format.name().equals("json")) {
            write(forScreen(line, false) + "\n");
            return;
        }
        StringBuilder b = new StringBuilder("{\"print\": ");
        JsonFormatter.string(line, b);
        printJson(b.append("}\n").toString());
    }

    /** Ends the run's JSON: the one held result, or the array's close. */
    private void endJson() throws IOException {
        String held = heldJson;
        boolean array = jsonArray;
        heldJson = null;
        jsonArray = false;
        if (held != null) write(held + "\n");
        if (array) write("\n]\n");
    }

    private void write(String text) throws IOException {
        OutputSink captured = init.capturedSink();
        if (captured != null) {
            captured.write(text);  // the init script run at an idle prompt: shown above the prompt
            return;
        }
        try {
            sink.write(text);
        } catch (IOException e) {
            if (sink.isConsole()) throw e;
            // A full disk: drop the file (it is never published half-written) and go back to the screen.
            OutputSink broken = sink;
            sink = OutputSink.console(out);
            try {
                broken.close();
            } catch (IOException expected) {
                // close() reports that the file was not written; we say so below
            }
            throw new IOException("writing " + broken.target() + " failed (" + e.getMessage()
                    + "); the file was not written and results go to the screen again", e);
        }
    }

    public void print(Output output) throws IOException, CommandException { print(List.of(output)); }

    public FormatOptions formatOptions() {
        boolean color = switch (settings.color()) {
            case "on" -> true;
            case "off" -> false;
            default -> env.interactive();
        };
        // On a terminal a table fits its width and csv and tsv escape control characters; a pipe
        // or a file gets every column and the data exact.
        boolean terminal = env.interactive() && sink.isConsole();
        // 'set maxwidth 0' shows cells whole, as it says: the table is then not cut to the terminal either
        return new FormatOptions(settings.rawSizes(), color && !env.noColor() && sink.isConsole(), settings.maxWidth(),
                terminal && settings.maxWidth() > 0 ? terminalWidth : 0, terminal);
    }

    /** Results, their notes included, go to the terminal the user reads stderr on. */
    public boolean notesOnScreen() {
        return env.interactive() && sink.isConsole() && Formatters.isHuman(format);
    }

    /** A line of information for the user (stderr, so stdout stays data). */
    public void info(String message) { err().println(message); }

    /** Prints a one-line error, with the script location when running one. */
    public void error(String message) {
        err().println((location == null ? "" : location + ": ") + "error: " + forScreen(message, true));
    }

    /**
     * Text a script made, as it may be shown: on a terminal its control characters escaped
     * ({@code \x1b}) as table cells are, so {@code print("\x1b]2;...\x07")} cannot rename the window;
     * to a file or a pipe exact. {@code toStderr}: for stderr, which a file sink does not take.
     */
    public String forScreen(String text, boolean toStderr) {
        boolean screen = env.interactive() && (toStderr || sink.isConsole());
        return screen ? TableFormatter.visible(text, true) : text;
    }

    private void diagnostic(String rendered) {
        if (location != null) err.println(location + ":");
        err.println(rendered.endsWith("\n") ? rendered.substring(0, rendered.length() - 1) : rendered);
    }

    /** A bug in bufq, not the user's doing: one line, or the stack trace with BUFQ_DEBUG set. */
    public void internalError(Throwable e) {
        err().println((location == null ? "" : location + ": ") + "bufq: internal error: " + e
                + " (run with BUFQ_DEBUG=1 for the stack trace)");
        if (env.debug()) e.printStackTrace(err());
    }

    // ---- modules ----

    /** Finds the modules of {@code paths} and adds them; the first becomes current (see {@link ModuleSet}). */
    public List<ModuleSet.Entry> load(List<Path> paths) throws Engine.Failure {
        return load(paths, Set.of());
    }

    /** As {@link #load(List)}, reading {@code parts} with each module (a batch run's statements need them). */
    public List<ModuleSet.Entry> load(List<Path> paths, Set<DumpPart> parts) throws Engine.Failure {
        List<Engine.FoundModule> found = discover(paths);
        if (!parts.isEmpty()) found = found.stream().map(s -> s.reading(parts)).toList();
        List<ModuleSet.Entry> added = modules.add(found, line -> err.println("bufq: warning: " + line));
        for (ModuleSet.Entry e : added) if (e.loaded() != null) reportWarnings(e.loaded());
        return added;
    }

    /** The modules of {@code paths}, not yet parsed; the files a directory scan skipped are one warning line. */
    public List<Engine.FoundModule> discover(List<Path> paths) throws Engine.Failure {
        return engine.discover(paths, line -> err.println("bufq: warning: " + line));
    }

    /** Adds modules already in memory (tests, scripts); the first becomes current. */
    public List<ModuleSet.Entry> addModules(List<HloModule> fresh) {
        try {
            return modules.add(fresh.stream().map(Engine.FoundModule::of).toList());
        } catch (Engine.Failure e) {
            throw new IllegalStateException("a module in memory cannot fail to load", e);
        }
    }

    /** The module of {@code e}, parsing it now if it is not in memory (its warnings are printed then). */
    public HloModule module(ModuleSet.Entry e) throws Engine.Failure {
        boolean fresh = e.loaded() == null;
        HloModule m = modules.get(e);
        if (fresh) reportWarnings(m);
        return m;
    }

    /**
     * Calls {@code visit} with every module in turn, parsing those not in memory; shows progress on
     * a terminal when that takes a while, and stops with "cancelled" when the thread is interrupted
     * (Ctrl-C in the REPL).
     */
    public void forEachModule(ModuleVisitor visit) throws Engine.Failure, CommandException {
        List<ModuleSet.Entry> all = modules.entries();
        boolean progress = env.interactive() && all.stream().filter(e -> e.loaded() == null).count() > 1;
        try {
            for (int i = 0; i < all.size(); i++) {
                if (Thread.currentThread().isInterrupted()) throw new CommandException(COMMAND_CANCELLED);
                if (progress && all.get(i).loaded() == null) {
                    err.print("\rreading module " + (i + 1) + "/" + all.size() + " ");
                    err.flush();
                }
                visit.accept(module(all.get(i)));
            }
        } finally {
            if (progress) {
                err.print("\r\033[K");
                err.flush();
            }
        }
    }

    /** What {@link #forEachModule} calls. */
    public interface ModuleVisitor {
        void accept(HloModule m) throws Engine.Failure, CommandException;
    }

    /**
     * The work an idle prompt does, in this order, each step on a thread of its own or on the
     * caller's (the REPL's idle thread, never the one running statements):
     * <ol>
     *   <li>the current module's parts not read yet are read in the background, printing nothing
     *       (see {@link DeferredReads});</li>
     *   <li>the script engine starts in the background ({@link ScriptEngine#prepare}), so the first
     *       {@code js} finds it ready;</li>
     *   <li>a pending init script runs on the calling thread (see {@link InitScript}); what it prints
     *       is handed to {@code show} (the REPL prints it above the prompt), and a statement that
     *       comes meanwhile waits for it.</li>
     * </ol>
     * {@code stillIdle} is asked before steps 2 and 3: once a key was typed or a statement entered,
     * the rest waits for the next idle moment. Every step is done once; calling this again goes on
     * where it stopped.
     */
    public void idle(BooleanSupplier stillIdle, Consumer<String> show) {
        deferred.startInBackground(current());
        if (!stillIdle.getAsBoolean()) return;
        scripts().prepare();
        if (!stillIdle.getAsBoolean()) return;
        init.runIdle(show);
    }

    /**
     * Defers the user's init script ({@code $XDG_CONFIG_HOME/bufq/init.js}) to its first need: the
     * first statement that {@link #usesScripts uses scripts}, the first script, or an idle prompt.
     */
    public void deferInit() { init.defer(); }

    /**
     * Runs the init script now if it is deferred and has not run (waits for it when an idle prompt
     * is running it); a script about to run calls this first.
     *
     * @throws CommandException interrupted (Ctrl-C) while an idle prompt's run of it goes on
     */
    public void runPendingInit() throws CommandException { init.run(); }

    /** Runs {@code body} with no script location: the init script's errors name its own file and line. */
    void outsideScript(Runnable body) {
        String saved = location;
        location = null;
        try {
            body.run();
        } finally {
            location = saved;
        }
    }

    /** The background read {@link #idle} started for {@code m}, or null (tests wait on it). */
    CompletableFuture<Void> backgroundRead(HloModule m) { return deferred.backgroundRead(m); }

    private List<HloModule> loadedModules() {
        List<HloModule> out = new ArrayList<>();
        for (ModuleSet.Entry e : modules.entries()) if (e.loaded() != null) out.add(e.loaded());
        return out;
    }

    private void reportWarnings(HloModule m) {
        deferred.loaded(m);
        List<LoadWarning> w = m.warnings();
        for (int i = 0; i < Math.min(w.size(), WARNINGS_SHOWN); i++) err.println("bufq: warning: " + w.get(i));
        if (w.size() > WARNINGS_SHOWN)
            err.println("bufq: warning: " + (w.size() - WARNINGS_SHOWN) + " more warnings in " + m.handle());
    }

    public ModuleSet modules() { return modules; }

    /** The current module, or null before anything is loaded. */
    public HloModule current() { return modules.current(); }

    public HloModule requireModule() throws CommandException {
        if (modules.current() == null) throw new CommandException("no module loaded (use 'load PATH')");
        return modules.current();
    }

    /** Makes the module called {@code name} (handle, number or unique prefix) current, parsing it if needed. */
    public HloModule use(String name) throws CommandException, Engine.Failure {
        ModuleSet.Entry e = modules.find(name);
        boolean fresh = e.loaded() == null;
        modules.use(e);
        if (fresh) reportWarnings(e.loaded());
        return e.loaded();
    }

    /** Whether {@code file} is a script of the script engine's language (by its extension). */
    public boolean isScriptFile(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith("." + scripts().extension());
    }

    /** Statements of a {@code .bq} script or of stdin, read from {@code r}. */
    public StatementReader statements(BufferedReader r) {
        return new StatementReader(r, engine.entities(), this::scriptIncomplete);
    }

    /** Whether {@code text} is a statement that cannot end here (see {@link StatementReader#needsMore}). */
    public boolean needsMore(String text) {
        return StatementReader.needsMore(text, engine.entities(), this::scriptIncomplete);
    }

    private boolean scriptIncomplete(String code) { return scripts().incomplete(code); }

    // ---- state used by commands ----

    public Engine engine() { return engine; }
    public Settings settings() { return settings; }
    public History history() { return history; }
    public CommandTable commands() { return commands; }
    public Env env() { return env; }
    public Formatter format() { return format; }
    public void setFormat(Formatter f) {
        if (f != format) {
            try {
                endJson();
            } catch (IOException e) {
                error(e.getMessage());
            }
        }
        format = f;
    }
    /** A batch run: its json results make one document (see {@link #printJson}). */
    public void setOneJsonDocument(boolean on) { oneJsonDocument = on; }
    public boolean bail() { return bail; }
    /** Where {@code oom -} reads pasted text (the REPL, a piped script or a batch run sets it). */
    public Paste paste() { return paste; }
    public void setPaste(Paste p) { paste = p == null ? Paste.NONE : p; }
    public void setBail(boolean b) { bail = b; }
    public void requestQuit() { quit = true; }
    public boolean quitRequested() { return quit; }
    public PrintStream out() { return out; }
    /** Where messages go: stderr, or the buffer of an init script running at an idle prompt (on its thread). */
    public PrintStream err() {
        PrintStream captured = init.capturedErr();
        return captured != null ? captured : err;
    }
    /** Where results go: the sink, or the buffer of an init script running at an idle prompt (on its thread). */
    public OutputSink sink() {
        OutputSink captured = init.capturedSink();
        return captured != null ? captured : sink;
    }
    /** Columns available for charts: {@code COLUMNS}, or what the REPL's terminal reports, else 100. */
    public int terminalWidth() { return terminalWidth; }
    public void setTerminalWidth(int columns) { if (columns >= 20) terminalWidth = columns; }

    /** Closes the current sink (publishing a file) and switches to {@code next}. */
    public void switchSink(OutputSink next) throws IOException {
        if (!(sink.isConsole() && next.isConsole())) endJson();  // the document ends with its file
        OutputSink old = sink;
        sink = next;
        sinkUsed = false;
        old.close();
    }

    /** The session's script engine, made on first use; its language runtime starts only when a script runs. */
    public ScriptEngine scripts() {
        if (scripts == null) scripts = scriptEngine.apply(this);
        return scripts;
    }

    /** Checks registered by scripts ({@code bufq.check}); empty, without starting anything, when none ran. */
    /** {@code advise} rules that scripts registered. */
    public List<Rule> scriptRules() {
        return scripts == null ? List.of() : scripts.rules();
    }

    public List<CheckRule> scriptChecks() {
        return scripts == null ? List.of() : scripts.checks();
    }

    /** Ends the session: publishes any output file. */
    public void close() throws IOException {
        if (scripts != null) scripts.close();
        endJson();
        switchSink(OutputSink.console(out));
    }
}
